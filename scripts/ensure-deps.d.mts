export function ensureNodeModules(): void;
export function ensureDebianPackages(packages: string[], present: () => boolean, what: string): void;
export function chromiumPath(): string;
export function ensureChromium(): string;
export function debianPython(): string;
export function ensurePythonWebStack(): string;

// The preview worker's first import (see public/zod-jitless.js for the page): zod 4 would probe
// `new Function` when schemas are created, which the CSP blocks and reports. zod reads this
// global config when it loads, so this module must not import zod itself.
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = Object.assign(g.__zod_globalConfig ?? {}, { jitless: true });

export {};

// Import circles, type-only imports included. eslint-plugin-import-x's `no-cycle` skips every
// `import type` (and `import { type X }`), so a circle held together by types passes it; this rule
// reads each file's imports as TypeScript resolves them and reports an import that closes a circle.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const compilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  allowJs: true,
};
const host = ts.sys;
/** per file: its mtime and the repository files it imports */
const importsCache = new Map();

/** the files `file` imports (statically, re-exports and type imports included), outside node_modules */
function importsOf(file) {
  let mtime;
  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const had = importsCache.get(file);
  if (had && had.mtime === mtime) return had.imports;
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false);
  const imports = [];
  for (const ref of info.importedFiles) {
    const resolved = ts.resolveModuleName(ref.fileName, file, compilerOptions, host).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) continue;
    const target = path.resolve(resolved.resolvedFileName);
    if (target.includes(`${path.sep}node_modules${path.sep}`) || target.endsWith('.d.ts')) continue;
    imports.push({ specifier: ref.fileName, target });
  }
  importsCache.set(file, { mtime, imports });
  return imports;
}

/** a shortest path of imports from `from` back to `to`, or null */
function pathBack(from, to) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const f = queue.shift();
    if (f === to) {
      const out = [];
      for (let at = f; at !== null; at = prev.get(at)) out.unshift(at);
      return out;
    }
    for (const { target } of importsOf(f)) {
      if (!prev.has(target)) {
        prev.set(target, f);
        queue.push(target);
      }
    }
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbids import circles, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import circle: {{route}}' },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    if (!fs.existsSync(file)) return {};
    const cwd = context.cwd ?? process.cwd();
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const specifier = node.source.value;
      for (const { specifier: s, target } of importsOf(file)) {
        if (s !== specifier || target === file) continue;
        const back = pathBack(target, file);
        if (!back) continue;
        const route = [file, ...back].map((f) => path.relative(cwd, f)).join(' -> ');
        context.report({ node, messageId: 'cycle', data: { route } });
        return;
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

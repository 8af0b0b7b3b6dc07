// `npm run bench:gpu-kit`: `npm run bench -- gpu` packed for a machine with a GPU and neither a
// network nor Node: this Node binary, the bench bundled by esbuild (gpu-bench.mjs, gpu-child.mjs),
// onnxruntime-node's linux-x64 binaries, onnxruntime-web's native-EP build and its wasm, Dawn's
// dawn.node, the Vulkan loader and SwiftShader where this machine has them, and run.sh. Writes
// tmp/gpu-kit/gpu-bench-kit/ and tmp/gpu-kit/gpu-bench-kit.tar.xz (GPU_KIT_OUT to put them elsewhere).
//   on the GPU machine: tar -xJf gpu-bench-kit.tar.xz && bash gpu-bench-kit/run.sh [configs]
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.env.GPU_KIT_OUT ?? path.join(root, 'tmp/gpu-kit'));
const kit = path.join(out, 'gpu-bench-kit');
const nm = path.join(root, 'node_modules');
const version = (pkg: string) =>
  (JSON.parse(readFileSync(path.join(nm, pkg, 'package.json'), 'utf8')) as { version: string }).version;

/** the first of `candidates` that exists: the Vulkan loader is a system library here or Chromium's copy */
const firstFile = (candidates: string[]) => candidates.find((f) => existsSync(f));

function copy(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(from, to);
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

rmSync(kit, { recursive: true, force: true });
mkdirSync(kit, { recursive: true });

// the bench and its child, every project source inlined; the native and wasm packages stay outside
execFileSync(
  path.join(nm, '.bin/esbuild'),
  [
    `gpu-bench=${path.join(root, 'bench/gpu-kit-entry.ts')}`,
    `gpu-child=${path.join(root, 'bench/gpu-child.ts')}`,
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node20',
    '--out-extension:.js=.mjs',
    `--outdir=${kit}`,
    '--external:onnxruntime-node',
    '--external:onnxruntime-web',
    '--external:webgpu',
    '--log-level=warning',
  ],
  { stdio: 'inherit' },
);

copy(process.execPath, path.join(kit, 'node'));

// onnxruntime-node: its JS and the linux-x64 binding (the CPU reference)
const ortNode = path.join(kit, 'node_modules/onnxruntime-node');
copy(path.join(nm, 'onnxruntime-node/package.json'), path.join(ortNode, 'package.json'));
cpSync(path.join(nm, 'onnxruntime-node/dist'), path.join(ortNode, 'dist'), {
  recursive: true,
  filter: (f) => !f.endsWith('.map') && !f.endsWith('.d.ts'),
});
for (const f of ['libonnxruntime.so.1', 'onnxruntime_binding.node'])
  copy(path.join(nm, 'onnxruntime-node/bin/napi-v6/linux/x64', f), path.join(ortNode, 'bin/napi-v6/linux/x64', f));
const common = path.join(kit, 'node_modules/onnxruntime-common');
copy(path.join(nm, 'onnxruntime-common/package.json'), path.join(common, 'package.json'));
cpSync(path.join(nm, 'onnxruntime-common/dist'), path.join(common, 'dist'), {
  recursive: true,
  filter: (f) => !f.endsWith('.map') && !f.endsWith('.d.ts'),
});

// onnxruntime-web: the native WebGPU EP build the bench runs, its asyncify wasm, and the Node
// entry the project's WASM backend imports (loaded, never run here)
const ortWeb = path.join(kit, 'node_modules/onnxruntime-web');
const webFiles = ['ort.webgpu.bundle.min.mjs', 'ort-wasm-simd-threaded.asyncify.wasm', 'ort.node.min.mjs'];
for (const f of webFiles) copy(path.join(nm, 'onnxruntime-web/dist', f), path.join(ortWeb, 'dist', f));
writeJson(path.join(ortWeb, 'package.json'), {
  name: 'onnxruntime-web',
  version: version('onnxruntime-web'),
  type: 'module',
  exports: {
    '.': { import: './dist/ort.node.min.mjs' },
    './webgpu': { import: './dist/ort.webgpu.bundle.min.mjs' },
    './ort-wasm-simd-threaded.asyncify.wasm': './dist/ort-wasm-simd-threaded.asyncify.wasm',
  },
});

// Dawn's Node binding, linux-x64 only
const webgpu = path.join(kit, 'node_modules/webgpu');
for (const f of ['package.json', 'index.js', 'dist/linux-x64/dawn.node'])
  copy(path.join(nm, 'webgpu', f), path.join(webgpu, f));

// the Vulkan loader (run.sh uses it only where the machine has none) and SwiftShader (GPU_BENCH_SWIFTSHADER=1)
const loader = firstFile([
  '/usr/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/usr/lib/chromium/libvulkan.so.1',
]);
if (loader) copy(loader, path.join(kit, 'lib/libvulkan.so.1'));
// NVIDIA's Vulkan driver (libGLX_nvidia) links against the GL vendor-neutral dispatch libraries, which a bare
// machine lacks as well: without them Dawn finds no adapter
const glvnd = ['libGLdispatch.so.0', 'libGLX.so.0', 'libEGL.so.1', 'libOpenGL.so.0', 'libGL.so.1'];
for (const lib of glvnd) {
  const found = firstFile([`/usr/lib/x86_64-linux-gnu/${lib}`, `/lib/x86_64-linux-gnu/${lib}`]);
  if (found) copy(found, path.join(kit, 'lib', lib));
}
const swiftshader = '/usr/lib/chromium';
if (existsSync(path.join(swiftshader, 'libvk_swiftshader.so')))
  for (const f of ['libvk_swiftshader.so', 'vk_swiftshader_icd.json'])
    copy(path.join(swiftshader, f), path.join(kit, 'swiftshader', f));

copy(path.join(root, 'bench/gpu-kit-run.sh'), path.join(kit, 'run.sh'));
const git = (args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
writeJson(path.join(kit, 'KIT_VERSION.json'), {
  built: new Date().toISOString(),
  project: `${git(['rev-parse', 'HEAD'])}${git(['status', '--porcelain']) ? ' (with uncommitted changes)' : ''}`,
  node: process.version,
  'onnxruntime-web': version('onnxruntime-web'),
  'onnxruntime-node': version('onnxruntime-node'),
  webgpu: version('webgpu'),
  vulkanLoader: loader ?? null,
});

// xz's fast preset: -6 took over 10 minutes on 2 busy cores for a few MiB less
const tarball = path.join(out, 'gpu-bench-kit.tar.xz');
execFileSync('tar', ['-C', out, '-cf', `${tarball}.tmp`, '--use-compress-program=xz -T2 -2', 'gpu-bench-kit']);
renameSync(`${tarball}.tmp`, tarball);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const size = Number(execFileSync('du', ['-sb', kit], { encoding: 'utf8' }).split('\t')[0]);
console.log(`${kit}: ${mib(size)}\n${tarball}: ${mib(statSync(tarball).size)}`);

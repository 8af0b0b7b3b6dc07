import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { mockHubPlugin } from './scripts/vite-mock-hub.ts';

// COOP/COEP: onnxruntime-web's WASM threads need SharedArrayBuffer (cross-origin isolation).
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react(), tailwindcss(), mockHubPlugin()],
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Rolldown's report of slow plugins is for profiling a build, not for every `npm start`.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  optimizeDeps: { exclude: ['onnxruntime-web'] },
});

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettierConfig from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import noImportCycle from './scripts/eslint/no-import-cycle.js';

// Import direction: schemas <- client <- features <- app; mock-hub and webhooks import only
// schemas; model imports nothing from hub or features; features never import each other, and reach the
// model only through its public entry, src/model/index.ts.
// src/cli (command-line parsing) imports nothing from src, so every command line may use it.
// src/test-support may import both the client and the mock hub; only tests import test support.
const featureDirs = [
  'inbox',
  'settings',
  'webhooks',
  'jobs',
  'storage',
  'organizations',
  'audit-log',
  'preview',
  'auth',
];
const featureZones = featureDirs.map((name) => ({
  target: `./src/features/${name}`,
  from: './src/features',
  except: [`./${name}`],
  message: 'Features must not import each other; move shared code to src/components or src/hub.',
}));

// The model's parts the preview still imports past the public entry: what its inspection (checkpoint.ts), uploads
// and tests use. They go as the preview's model work moves behind its worker.
// The model library's layers, lowest first: a folder imports only from the folders before it
// (graph/ and onnx/ are one layer). Tests may use the whole library; see docs/architecture.md.
const modelLayers = [
  ['io'],
  ['cache'],
  ['graph', 'onnx'],
  ['runtime'],
  ['plan'],
  ['convert'],
  ['models'],
  ['pipeline'],
];
const modelTop = ['./src/model/index.ts', './src/model/node.ts', './src/model/cli.ts', './src/model/cli'];
const modelLayerZones = modelLayers.slice(0, -1).map((layer, i) => ({
  target: layer.map((d) => `./src/model/${d}`),
  from: [
    ...modelLayers
      .slice(i + 1)
      .flat()
      .map((d) => `./src/model/${d}`),
    ...modelTop,
  ],
  message: `src/model/${layer.join(', ')} is below ${modelLayers
    .slice(i + 1)
    .map((l) => l.join('/'))
    .join(', ')}: a lower layer does not import a higher one (docs/architecture.md).`,
}));

/** the preview page reaches the model through its public entry; its tests may use the whole library */
const previewZone = {
  target: './src/features/preview',
  from: './src/model',
  except: ['./index.ts'],
  message: 'The preview reaches the model only through its public entry, src/model/index.ts.',
};

const zones = [
  previewZone,
  {
    target: './src/cli',
    from: [
      './src/hub',
      './src/features',
      './src/app',
      './src/mock-hub',
      './src/webhooks',
      './src/model',
      './src/components',
    ],
    message: 'Command-line helpers import nothing from src: every layer may use them.',
  },
  {
    target: './src/hub/schemas',
    from: [
      './src/hub/client.ts',
      './src/hub/queries.ts',
      './src/features',
      './src/app',
      './src/mock-hub',
      './src/webhooks',
      './src/model',
      './src/components',
    ],
    message: 'Schemas are the bottom layer.',
  },
  {
    target: './src/hub',
    from: ['./src/features', './src/app', './src/mock-hub', './src/webhooks', './src/model'],
    message: 'The hub client does not depend on the app.',
  },
  {
    target: './src/mock-hub',
    from: [
      './src/hub/client.ts',
      './src/hub/queries.ts',
      './src/features',
      './src/app',
      './src/model',
      './src/components',
    ],
    message: 'The mock hub imports only schemas (and webhooks payload schema).',
  },
  {
    target: './src/webhooks',
    from: [
      './src/hub/client.ts',
      './src/hub/queries.ts',
      './src/features',
      './src/app',
      './src/mock-hub',
      './src/model',
      './src/components',
    ],
    message: 'Webhooks import only schemas.',
  },
  {
    target: './src/model',
    from: ['./src/hub', './src/features', './src/app', './src/mock-hub', './src/webhooks', './src/components'],
    message: 'The model imports nothing from hub or features.',
  },
  {
    target: './src/test-support',
    from: ['./src/features', './src/app', './src/components'],
    message: 'Test support serves the hub client and the mock hub, not the UI.',
  },
  {
    target: './src/features',
    from: ['./src/app', './src/mock-hub'],
    message: 'Features do not import the app shell or the mock hub.',
  },
  {
    target: [
      ...featureDirs.filter((d) => d !== 'preview').map((d) => `./src/features/${d}`),
      './src/components',
      './src/app',
    ],
    from: './src/model',
    except: ['./index.ts'],
    message: 'The UI reaches the model only through its public entry, src/model/index.ts.',
  },
  {
    target: './src/components',
    from: ['./src/features', './src/app', './src/mock-hub'],
    message: 'Shared UI does not import features.',
  },
  ...featureZones,
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'test-results',
      'playwright-report',
      'public',
      '.data',
      'docs',
      'tmp',
      '.scratch',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Formatting is Prettier's alone: no ESLint rule may disagree with it.
  prettierConfig,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { import: importX, 'react-hooks': reactHooks, local: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // import-x/no-cycle skips type-only imports; local/no-import-cycle counts them (scripts/eslint/no-import-cycle.js)
      'local/no-import-cycle': 'error',
      'import/no-restricted-paths': [
        'error',
        {
          zones,
        },
      ],
    },
  },
  {
    files: ['src/features/preview/**/*.test.{ts,tsx}'],
    rules: { 'import/no-restricted-paths': ['error', { zones: zones.filter((z) => z !== previewZone) }] },
  },
  {
    files: ['src/model/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/model/test-support/**'],
    rules: { 'import/no-restricted-paths': ['error', { zones: [...zones, ...modelLayerZones] }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/model/runtime/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['onnxruntime-*'], message: 'Only src/model/runtime imports onnxruntime.' }] },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test-support/**', 'src/**/test-support/**', 'src/**/test-support.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test-support/**', '**/test-support.ts'], message: 'Only tests import test support.' },
          ],
        },
      ],
    },
  },
  {
    // the preview page behind one door: only its workers run the model library; the page takes types from it
    files: ['src/features/preview/**/*.{ts,tsx}'],
    ignores: ['src/features/preview/worker/**', 'src/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test-support/**', '**/test-support.ts'], message: 'Only tests import test support.' },
            {
              group: ['**/model/**'],
              allowTypeImports: true,
              message: 'The preview page imports only types from src/model (import type); its workers run the model.',
            },
            {
              group: [
                '**/worker/*',
                '!**/worker/protocol.ts',
                '!**/worker/model-worker.ts',
                '!**/worker/plan-client.ts',
              ],
              allowTypeImports: true,
              message: 'The page talks to its workers through model-worker.ts and plan-client.ts only.',
            },
          ],
        },
      ],
    },
  },
);

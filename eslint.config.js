import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettierConfig from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

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
    plugins: { import: importX, 'react-hooks': reactHooks },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'import/no-cycle': ['error', { maxDepth: 10 }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
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
              from: [
                './src/hub',
                './src/features',
                './src/app',
                './src/mock-hub',
                './src/webhooks',
                './src/components',
              ],
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
              target: ['./src/features', './src/components', './src/app'],
              from: './src/model',
              except: ['./index.ts'],
              message:
                'The UI reaches the model only through its public entry, src/model/index.ts (export what is missing there).',
            },
            {
              target: './src/components',
              from: ['./src/features', './src/app', './src/mock-hub'],
              message: 'Shared UI does not import features.',
            },
            ...featureZones,
          ],
        },
      ],
    },
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

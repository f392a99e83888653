import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      '.scratch/',
      // made by scripts/bundle.ts from tesseract.js and tesseract.js-core
      'packages/macpilot-linux-ocr/tesseract.cjs',
      'packages/macpilot-linux-ocr/worker.cjs',
      'packages/macpilot-linux-ocr/tesseract-core-*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // GNOME Shell's GJS: its own globals, and init() is what the shell calls.
    files: ['gnome-extension/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { imports: 'readonly', global: 'readonly' } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^init$' }] },
  },
  {
    // GNOME Shell 45 and later load extensions as ES modules: no `imports`, only `import`.
    files: ['gnome-extension/45/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { global: 'readonly' } },
  },
  {
    // The OCR package's entry: CommonJS, as tesseract.js is.
    files: ['packages/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The console's page: a browser's globals.
    files: ['console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'fetch',
          'EventSource',
          'FormData',
          'Option',
          'HTMLSelectElement',
          'HTMLInputElement',
          'setInterval',
          'clearInterval',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', setTimeout: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // The audit log keeps a failure's kind, never its sentences: one left out is logged as "failed". An object
    // that spreads another may take its kind from it.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "NewExpression[callee.name=/^(MacpilotError|AppRefused|AppAmbiguous|StoppedAtTheDesk)$/] > ObjectExpression:first-child:not(:has(> Property[key.name='kind'])):not(:has(> SpreadElement))",
          message:
            'Give the MacpilotError a kind (snake_case, e.g. "element_not_found"): the audit log records only the kind.',
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);

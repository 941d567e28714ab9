// @ts-check
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "**/node_modules/**",
      "coverage/**",
      ".pulumi-state/**",
      // `npm run sdk`'s generated SDKs (git-ignored).
      "sdk/**",
      // JavaScript other than the scripts and the configs: fixtures and programs run as they are.
      "{bench,examples,tests,tools,provider,emulator}/**/*.{js,mjs,cjs}",
      // ...but the code generator is a script like those of scripts/.
      "!tools/codegen/**",
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The tsconfig files themselves rather than the project service: the scripts are only in
        // tsconfig.scripts.json (checkJs), which the service would not find for them.
        project: ["./tsconfig.json", "./tsconfig.scripts.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["{scripts,toolchain,tools/codegen}/**/*.{js,cjs,mjs}", "*.config.{js,mjs}"],
    rules: {
      // tsc checks these files (tsconfig.scripts.json: checkJs), and reports undefined names
      // with Node's own types, which no-undef does not know.
      "no-undef": "off",
    },
  },
  {
    files: ["{scripts,toolchain,tools/codegen}/**/*.cjs", "jest*.config.js"],
    rules: {
      // CommonJS is what these files are (Jest suites require them as they are).
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    files: ["tests/**/*.ts", "bench/**/*.ts", "tools/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
);

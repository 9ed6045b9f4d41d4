import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".data/",
      "next-env.d.ts",
      "programs/vault/target/",
      "programs/toolchain/.cache/",
      "coverage/",
      "packages/client/dist/",
      // Written by Codama from programs/vault/idl.json (npm run program:generate; checked by typecheck).
      "lib/vault/generated/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always"],
    },
  },
);

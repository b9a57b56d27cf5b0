// ESLint for the page's script (static/js/src, in the browser) and its tests (tests/js, in Node).
// `make lint` runs it. The service worker (templates/pwa/sw.js) is a template the server fills in,
// not JavaScript until then: its behaviour tests run the filled-in script.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "static/vendor/", "templates/"] },
  js.configs.recommended,
  {
    files: ["static/js/src/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    // The reopen benchmark's floor: a one-button page and its worker, served as they are.
    files: ["benchmarks/floor/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "prefer-arrow-callback": "error",
      eqeqeq: "error",
      "no-implicit-globals": "error",
      // Modules share what they export; nothing is hung on window for another to find.
      "no-restricted-syntax": [
        "error",
        {
          selector: "AssignmentExpression > MemberExpression.left[object.name='window']",
          message: "Export it and import it where it is needed, rather than setting a window global.",
        },
      ],
      "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
];

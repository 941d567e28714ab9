/**
 * `npm run test:unit`: the suites that need neither the built package (dist/, or a packed copy of
 * it) nor the Pulumi engine: the client, the emulator (in-process, or its CLI transpiled on the
 * fly), the conformance corpus, the resources under Pulumi's mocks, faults, fuzzing and security.
 * `npm test` runs everything.
 *
 * @type {import('jest').Config}
 */
module.exports = {
  ...require("./jest.config.js"),
  roots: [
    "<rootDir>/tests/client",
    "<rootDir>/tests/conformance",
    "<rootDir>/tests/emulator",
    "<rootDir>/tests/faults",
    "<rootDir>/tests/fuzz",
    "<rootDir>/tests/resources",
    "<rootDir>/tests/security",
  ],
  testPathIgnorePatterns: [
    "/node_modules/",
    // Runs the built client (dist/provider/client) in a child process.
    "<rootDir>/tests/client/proxy.test.ts",
    // Runs the built CLI (dist/emulator/cli.js) under npm, as CI does.
    "<rootDir>/tests/emulator/ci.test.ts",
    // Packs the repository and runs the provider in Pulumi's dynamic-provider host.
    "<rootDir>/tests/security/secrets.test.ts",
    // Starts SeaweedFS, which toolchain/object-store.cjs builds with Go (`npm test` builds it).
    "<rootDir>/tests/resources/site-export-object-store.test.ts",
  ],
};

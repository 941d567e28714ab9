"use strict";
// What scripts/definitions.cjs loads for a resource's generated.ts before it is first written:
// empty key lists, enough for its resource.ts to load.
module.exports = new Proxy(
  {},
  {
    get: (_target, key) =>
      key === "__esModule" ? true : { fromArguments: [], outputOnly: [], secret: [] },
  },
);

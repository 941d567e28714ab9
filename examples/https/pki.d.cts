/** The types of pki.cjs. */
export declare function organisationPki(
  dir: string,
  options: { names: string[]; renewal: string; password: string },
): { caPem: string; pkcs12: string };

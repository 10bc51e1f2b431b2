// Where releases are fetched from: install.sh, `khaelor update` and the start-up check all read the
// same base URL, under which a release is manifest.json, khaelor-<platform>, khaelor-<platform>.sha256
// and install.sh. KHAELOR has no public release host yet: the default is a placeholder in the
// `.invalid` top-level domain, which never resolves (RFC 2606), so no one can ever answer for it.
// Replace it once a host exists (install.sh carries the same line; test/install checks they agree).
export const PLACEHOLDER_RELEASE_URL = "https://releases.khaelor.invalid/latest";

type Env = Record<string, string | undefined>;

/** The release base URL: KHAELOR_RELEASE_URL (a mirror, a test server) or the default. No trailing slash. */
export function releaseUrl(env: Env = process.env): string {
  const url = env.KHAELOR_RELEASE_URL?.trim() || PLACEHOLDER_RELEASE_URL;
  return url.replace(/\/+$/, "");
}

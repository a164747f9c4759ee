/** A throwaway PKI for the connection tests, made with openssl on the spot (no network). */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Whether the openssl command is there (the tests that need it are skipped otherwise). */
export const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
})();

/** Paths of the PEM files {@link makeCertificates} writes. */
export type Certificates = Record<"ca" | "serverCert" | "serverKey" | "clientCert" | "clientKey", string>;

/** A CA, a server certificate for 127.0.0.1 and a client certificate, all signed by the CA. */
export function makeCertificates(dir: string): Certificates {
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=forge test CA");
  for (const [name, extensions] of [
    ["server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"],
    ["client", "extendedKeyUsage=clientAuth\n"],
  ] as const) {
    openssl("req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=forge test ${name}`);
    writeFileSync(join(dir, `${name}.ext`), `basicConstraints=CA:FALSE\n${extensions}`);
    openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.pem`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
    );
  }
  const path = (file: string) => join(dir, file);
  return {
    ca: path("ca.pem"),
    serverCert: path("server.pem"),
    serverKey: path("server.key"),
    clientCert: path("client.pem"),
    clientKey: path("client.key"),
  };
}

/** A server's TLS options that ask every client for a certificate signed by the test's CA. */
export function mutualTlsOptions(certs: Certificates) {
  return {
    cert: readFileSync(certs.serverCert),
    key: readFileSync(certs.serverKey),
    ca: readFileSync(certs.ca),
    requestCert: true,
    rejectUnauthorized: true,
  };
}

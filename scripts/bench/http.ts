// Plain HTTP on loopback (node:http, so Origin and X-Forwarded-For go out exactly as written), and the
// forms a visitor without JavaScript posts.
import http from "node:http";

export type HttpResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Milliseconds from sending to the last byte. */
  ms: number;
};

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function assertLoopback(url: URL) {
  if (url.hostname !== "127.0.0.1")
    throw new Error(`Le banc ne vise que 127.0.0.1, pas ${url.host}`);
}

export function request(
  target: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    /** A loopback address of this machine to send from (127.0.0.0/8): a client of its own for a proxy. */
    localAddress?: string;
  } = {},
): Promise<HttpResponse> {
  const url = new URL(target);
  assertLoopback(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? "GET",
        agent,
        headers: {
          ...(options.body !== undefined
            ? { "content-length": String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 30_000,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Number of database statements a response needed, from `Server-Timing: db;dur=…;desc="N queries"`. */
export function databaseRoundTrips(headers: http.IncomingHttpHeaders): number | undefined {
  const value = headers["server-timing"];
  const match = /desc="(\d+) queries"/.exec(Array.isArray(value) ? value.join(",") : (value ?? ""));
  return match ? Number(match[1]) : undefined;
}

/** Time the server spent waiting for the database, from the same header. */
export function databaseMilliseconds(headers: http.IncomingHttpHeaders): number | undefined {
  const value = headers["server-timing"];
  const match = /db;dur=([\d.]+)/.exec(Array.isArray(value) ? value.join(",") : (value ?? ""));
  return match ? Number(match[1]) : undefined;
}

/** A distinct client address per number, for X-Forwarded-For (the server trusts loopback proxies). */
export function clientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** Posts `fields` to `path` as a browser without JavaScript does: urlencoded, same Origin, from `client`. */
function postForm(baseUrl: string, path: string, fields: Record<string, string>, client: number) {
  return request(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      "x-forwarded-for": clientAddress(client),
      accept: "text/html",
    },
    body: new URLSearchParams(fields).toString(),
  });
}

export type SignUpOutcome = "subscribed" | "duplicate" | "other" | "5xx" | "network";

/** Posts the newsletter form of /blog; the page comes back with the outcome written under the field. */
export async function postNewsletter(
  baseUrl: string,
  email: string,
  client: number,
): Promise<{ outcome: SignUpOutcome; status: number; detail?: string }> {
  try {
    const response = await postForm(baseUrl, "/blog", { email, source: "blog" }, client);
    if (response.status >= 500) return { outcome: "5xx", status: response.status };
    const subscribed = response.body.includes("Vérifiez votre boîte mail");
    const duplicate = response.body.includes("Déjà inscrit");
    if (response.status === 200 && subscribed !== duplicate) {
      return { outcome: subscribed ? "subscribed" : "duplicate", status: 200 };
    }
    return {
      outcome: "other",
      status: response.status,
      detail: response.body.slice(0, 200),
    };
  } catch (error) {
    return { outcome: "network", status: 0, detail: (error as Error).message };
  }
}

export type ContactOutcome = "sent" | "other" | "5xx" | "network";

/** Posts the Brive contact form (every field filled in, the honeypot `site_web` left empty). */
export async function postContactMessage(
  baseUrl: string,
  marker: string,
  client: number,
): Promise<{ outcome: ContactOutcome; status: number; detail?: string }> {
  try {
    const response = await postForm(
      baseUrl,
      "/contact-studio-brive",
      {
        shootingType: "famille",
        prenom: "Camille",
        nom: "Banc",
        email: `camille.banc+${client}@example.com`,
        telephone: "06 12 34 56 78",
        source: "google",
        message: `Bonjour, nous aimerions une séance en famille. ${marker}`,
        site_web: "",
      },
      client,
    );
    if (response.status >= 500) return { outcome: "5xx", status: response.status };
    if (response.status === 200 && response.body.includes("Message envoyé")) {
      return { outcome: "sent", status: 200 };
    }
    return { outcome: "other", status: response.status, detail: response.body.slice(0, 200) };
  } catch (error) {
    return { outcome: "network", status: 0, detail: (error as Error).message };
  }
}

/** Signs in through the login form, as a browser without JavaScript does; returns the Cookie header. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await request(`${baseUrl}/admin/login`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      accept: "text/html",
    },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const cookie = (response.headers["set-cookie"] ?? [])
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => pair.includes("=") && !pair.endsWith("="))
    .join("; ");
  const dashboard = await request(`${baseUrl}/admin/dashboard`, {
    headers: { cookie, accept: "text/html" },
  });
  if (response.status !== 302 || dashboard.status !== 200) {
    throw new Error(
      `Connexion à l'administration impossible (${response.status}, puis ${dashboard.status})`,
    );
  }
  return cookie;
}

import { describe, expect, test } from "bun:test";
import { checkWebhookUrl, isPrivateHost } from "./check-webhook-url.js";

const STRICT = { requireHttps: false, allowPrivate: false };

describe("checkWebhookUrl: targets refused at save time", () => {
  const refused = [
    // the findings: IPv4-compatible, NAT64, 6to4, site-local, benchmarking
    "http://[::127.0.0.1]/hook",
    "http://[64:ff9b::7f00:1]/hook",
    "http://[64:ff9b::10.0.0.1]/hook",
    "http://[2002:7f00:1::]/hook",
    "http://[2002:c0a8:101::1]/hook",
    "http://[fec0::1]/hook",
    "http://198.18.0.1/hook",
    "http://198.19.255.254/hook",
    // IPv4-mapped and translated, in every spelling the URL parser accepts
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[0:0:0:0:0:ffff:a00:1]/hook",
    "http://[::ffff:0:a9fe:a9fe]/hook",
    "http://[64:ff9b:1::1]/hook",
    // the re-checked list
    "http://127.0.0.1/hook",
    "http://2130706433/hook",
    "http://0x7f.1/hook",
    "http://0.0.0.0/hook",
    "http://10.1.2.3/hook",
    "http://100.64.0.1/hook",
    "http://169.254.169.254/latest",
    "http://172.16.0.1/hook",
    "http://172.31.255.255/hook",
    "http://192.0.0.8/hook",
    "http://192.0.2.1/hook",
    "http://192.88.99.1/hook",
    "http://192.168.1.1/hook",
    "http://198.51.100.7/hook",
    "http://203.0.113.9/hook",
    "http://224.0.0.1/hook",
    "http://240.0.0.1/hook",
    "http://255.255.255.255/hook",
    "http://[::1]/hook",
    "http://[::]/hook",
    "http://[fc00::1]/hook",
    "http://[fd12:3456::1]/hook",
    "http://[fe80::1]/hook",
    "http://[febf::1]/hook",
    "http://[ff02::1]/hook",
    "http://[2001::1]/hook",
    "http://[2001:db8::1]/hook",
    "http://[100::1]/hook",
    "http://localhost/hook",
    "http://localhost./hook",
    "http://api.localhost/hook",
    "http://printer.local/hook",
    "http://metadata.google.internal/hook",
  ];
  for (const url of refused) {
    test(`${url} → not_allowed`, () => {
      expect(checkWebhookUrl(url, STRICT)).toMatchObject({ path: "webhook_url", reason: "not_allowed" });
    });
  }
});

describe("checkWebhookUrl: public targets accepted", () => {
  const accepted = [
    "https://hooks.example.com/timbre",
    "http://8.8.8.8/hook",
    "http://198.17.255.1/hook",
    "http://198.20.0.1/hook",
    "http://172.32.0.1/hook",
    "http://[2606:4700:4700::1111]/hook",
    "http://[2a00:1450:4001:80b::200e]/hook",
    "http://[64:ff9b::808:808]/hook",
    "http://[2002:808:808::1]/hook",
    "http://[::ffff:8.8.8.8]/hook",
  ];
  for (const url of accepted) {
    test(`${url} → accepted`, () => {
      expect(checkWebhookUrl(url, STRICT)).toBeNull();
    });
  }
  test("WEBHOOK_ALLOW_PRIVATE lets every private target through", () => {
    expect(checkWebhookUrl("http://[64:ff9b::7f00:1]/hook", { requireHttps: false, allowPrivate: true })).toBeNull();
  });
});

describe("isPrivateHost on resolved addresses (delivery time)", () => {
  test("DNS answers in dotted or mapped form", () => {
    expect(isPrivateHost("::ffff:127.0.0.1")).toBe(true);
    expect(isPrivateHost("64:ff9b::192.168.0.1")).toBe(true);
    expect(isPrivateHost("fe80::1%eth0")).toBe(true);
    expect(isPrivateHost("93.184.216.34")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { formatChecker, supportedFormat } from "./formats.js";
import { messages } from "./test-helpers.js";

const cases: Record<string, [valid: string[], invalid: string[]]> = {
  ipv4: [
    ["1.2.3.4", "0.0.0.0", "001.002.003.004", "::ffff:1.2.3.4"],
    ["256.1.1.1", "1.2.3", "1.2.3.4.5", "a.b.c.d", "1234::"],
  ],
  ipv6: [
    [
      "::1",
      "::",
      "1200:0000:AB00:1234:0000:2552:7777:1313",
      "21DA:D3:0:2F3B:2AA:FF:FE28:9C5A",
      "1234::",
      "::ffff:1.2.3.4",
    ],
    ["1:2:3:4:5:6:7:8:9", ":::", "1::2::3", "fe80::1%eth0", "12345::", "1.2.3.4", "1:2:3:4:5:6:7:8::"],
  ],
  cidr: [
    ["10.0.0.0/8", "::/0", "10.0.0.0/08", "fd00::/128"],
    ["10.0.0.0/33", "fd00::/129", "10.0.0.0", "10.0.0.0/", "10.0.0.0/x"],
  ],
  mac: [
    ["00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E", "001a.2b3c.4d5e", "00:00:5e:00:53:01:00:01"],
    ["00:1a:2b:3c:4d", "00:1a-2b:3c:4d:5e", "0g:1a:2b:3c:4d:5e"],
  ],
  uuid: [
    ["123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000"],
    ["123e4567-e89b-12d3-a456", "x"],
  ],
  uuid4: [["123e4567-e89b-42d3-a456-426614174000"], ["123e4567-e89b-12d3-a456-426614174000"]],
  date: [
    ["2024-02-29", "1999-12-31"],
    ["2023-02-29", "2024-13-01", "2024-1-01", "24-01-01"],
  ],
  "date-time": [
    ["2024-01-02T03:04:05Z", "2024-01-02t03:04:05.123+02:00", "2024-01-02T23:59:59-00:00"],
    [
      "2024-01-02T24:00:00Z",
      "2024-01-02 03:04:05Z",
      "2024-01-02T03:04:05",
      "2024-02-30T00:00:00Z",
      "2016-12-31T23:59:60Z",
    ],
  ],
  duration: [
    ["1h30m", "300ms", "-1.5h", "0", "2µs", "3 days", "1 week 2hours"],
    ["", "5", "1y", "1 fortnight", "h", ".s", "99999999999999999999 weeks", "1s invalid"],
  ],
  byte: [
    ["aGVsbG8=", "aGk=", "YWJj"],
    ["aGVsbG8", "", "aGVsbG8==x", "a_b-"],
  ],
  hostname: [
    ["example.com", "a", "münchen.de", "a-b.example"],
    ["-a.com", "a..b", "a_b.com", `${"a".repeat(64)}.com`],
  ],
  uri: [
    ["https://example.com/x?y", "/path", "mailto:a@b", "*", "http://[::1]:80/", "http://[fe80::1%25en0]/"],
    [
      "relative/path",
      "http://a b/",
      "http://host:port/",
      "/a%zz",
      ":x",
      "",
      "http://192.168.0.%31/",
      "http://[fe80::1%en0]/",
    ],
  ],
  email: [
    ["a@b.c", "Name <a@b.c>", '"a b"@example.com'],
    ["not-an-email", "a@", "@b.c"],
  ],
  password: [["anything", ""], []],
  hexcolor: [
    ["#fff", "abcdef"],
    ["#ffff", "#ggg"],
  ],
  rgbcolor: [["rgb(255, 0, 10)"], ["rgb(256,0,0)"]],
  isbn10: [["0321751043", "0-321-75104-3"], ["0321751044"]],
  isbn13: [["978-0321751041"], ["9780321751042"]],
  creditcard: [["4111 1111 1111 1111"], ["4111 1111 1111 1112"]],
  ssn: [
    ["123-45-6789", "123 45 6789"],
    ["123456789", "12-345-6789"],
  ],
  bsonobjectid: [["507f1f77bcf86cd799439011"], ["507f1f77bcf86cd79943901"]],
};

describe("formats", () => {
  it.each(Object.entries(cases))("%s", (name, [valid, invalid]) => {
    const check = formatChecker(name);
    expect(check).toBeDefined();
    for (const v of valid) expect(check?.(v), `${name} ${v}`).toBe(true);
    for (const v of invalid) expect(check?.(v), `${name} ${v}`).toBe(false);
  });

  it("names are normalised without dashes, and the server's unsupported formats are ignored", () => {
    expect(supportedFormat("datetime")).toBe(true);
    expect(supportedFormat("uuid-4")).toBe(true);
    for (const name of ["int32", "int64", "float", "double", "quantity", "made-up"])
      expect(supportedFormat(name)).toBe(false);
    expect(
      messages(
        {
          type: "object",
          properties: { n: { type: "integer", format: "int32" }, s: { type: "string", format: "made-up" } },
        },
        {
          n: 2 ** 40,
          s: "x",
        },
      ),
    ).toEqual([]);
  });

  it("a string that does not match is reported as a type error", () => {
    expect(
      messages({ type: "object", properties: { ip: { type: "string", format: "ipv4" } } }, { ip: "1.2.3" }),
    ).toEqual(['error spec.ip: Invalid value: "1.2.3": spec.ip in body must be of type ipv4: "1.2.3"']);
  });
});

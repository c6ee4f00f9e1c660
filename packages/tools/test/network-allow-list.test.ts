import { describe, expect, it } from 'vitest';
import { hostAllowed } from '../src/network-allow-list.js';

describe('hostAllowed', () => {
  it('lets everything through with *', () => {
    expect(hostAllowed(['*'], 'example.com', 443)).toBe(true);
  });

  it('matches a host on any port, or on the port it names', () => {
    expect(hostAllowed(['api.github.com'], 'api.github.com', 443)).toBe(true);
    expect(hostAllowed(['api.github.com'], 'API.GitHub.com.', 80)).toBe(true);
    expect(hostAllowed(['api.github.com:443'], 'api.github.com', 443)).toBe(true);
    expect(hostAllowed(['api.github.com:443'], 'api.github.com', 22)).toBe(false);
    expect(hostAllowed(['api.github.com'], 'github.com', 443)).toBe(false);
    expect(hostAllowed(['api.github.com'], 'api.github.com.evil.net', 443)).toBe(false);
    expect(hostAllowed([], 'api.github.com', 443)).toBe(false);
  });

  it('matches subdomains with *.domain, not the domain itself or a look-alike', () => {
    expect(hostAllowed(['*.github.com'], 'api.github.com', 443)).toBe(true);
    expect(hostAllowed(['*.github.com'], 'a.b.github.com', 443)).toBe(true);
    expect(hostAllowed(['*.github.com'], 'github.com', 443)).toBe(false);
    expect(hostAllowed(['*.github.com'], 'evilgithub.com', 443)).toBe(false);
  });

  it('matches IP literals, IPv6 with or without brackets and a port', () => {
    expect(hostAllowed(['127.0.0.1'], '127.0.0.1', 8080)).toBe(true);
    expect(hostAllowed(['127.0.0.1:8080'], '127.0.0.1', 8081)).toBe(false);
    expect(hostAllowed(['::1'], '[::1]', 80)).toBe(true);
    expect(hostAllowed(['[::1]:80'], '::1', 80)).toBe(true);
    expect(hostAllowed(['[::1]:80'], '::1', 81)).toBe(false);
  });
});

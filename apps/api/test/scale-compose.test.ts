import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BODY_LIMITS, HOOK_LIMITS } from '../src/limits';
import { REPO_ROOT } from './support/process';

/*
 * The `scale` compose profile (docs/scaling.md#try-it-two-replicas-behind-a-balancer), read
 * as Compose reads it: no container runtime runs here, so the file and the balancer's
 * configuration are checked instead of started.
 */

interface Service {
  image?: string;
  build?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
}

const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const inScale = (name: string) => !services[name]!.profiles || services[name]!.profiles!.includes('scale');
const nginx = readFileSync(join(REPO_ROOT, 'deploy/nginx/scale.conf'), 'utf8');
const REPLICAS = ['api-1', 'api-2'];

describe('the scale profile of docker-compose.yml', () => {
  it('runs two replicas of the API image, healthy before the balancer starts', () => {
    for (const name of REPLICAS) {
      const replica = services[name]!;
      expect(replica.profiles).toEqual(['scale']);
      expect(replica.build).toBe(services.api!.build);
      expect(replica.healthcheck?.test.join(' ')).toContain('/readyz');
      expect(replica.ports ?? []).toEqual([]);
    }
    const lb = services.lb!;
    expect(lb.profiles).toEqual(['scale']);
    expect(lb.image).toMatch(/^nginx:\d+\.\d+\.\d+-alpine$/);
    expect(lb.depends_on).toEqual({ 'api-1': { condition: 'service_healthy' }, 'api-2': { condition: 'service_healthy' } });
    expect(lb.healthcheck?.test.join(' ')).toContain('/readyz');
    expect(lb.volumes).toContain('./deploy/nginx/scale.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it('puts both replicas on one database, one bucket and one Redis, each healthy before they start', () => {
    const [a, b] = REPLICAS.map((name) => services[name]!);
    for (const key of ['DATABASE_URL', 'ARCHIVE_URL', 'S3_ENDPOINT', 'REDIS_URL', 'PUBLIC_URL']) {
      expect(a!.environment?.[key], key).toBeTruthy();
      expect(b!.environment?.[key], key).toBe(a!.environment?.[key]);
    }
    expect(a!.environment!.DATABASE_URL).toBe(services.api!.environment!.DATABASE_URL);
    expect(a!.environment!.ARCHIVE_URL).toBe(services.api!.environment!.ARCHIVE_URL);
    expect(new URL(a!.environment!.PUBLIC_URL!).port).toBe('8080');
    for (const replica of [a!, b!]) {
      expect(replica.depends_on).toEqual({
        mysql: { condition: 'service_healthy' },
        'minio-setup': { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
    }
    const redisHost = new URL(a!.environment!.REDIS_URL!).hostname;
    expect(inScale(redisHost) && services[redisHost]!.healthcheck).toBeTruthy();
    expect(new URL(a!.environment!.DATABASE_URL!).hostname).toBe('mysql');
  });

  it('has every service it depends on, and the balancer at the published port', () => {
    for (const [name, service] of Object.entries(services).filter(([name]) => inScale(name))) {
      const dependencies = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      for (const dependency of dependencies) expect(services[dependency], `${name} → ${dependency}`).toBeDefined();
    }
    expect(services.lb!.ports).toEqual(['8080:8080']);
    expect(nginx).toMatch(/^\s*listen 8080;/m);
  });
});

describe('deploy/nginx/scale.conf', () => {
  it('balances between exactly the two replicas, on the port they listen on', () => {
    const upstream = /upstream (\S+) \{([^}]*)\}/.exec(nginx);
    expect(upstream).not.toBeNull();
    const servers = [...upstream![2]!.matchAll(/^\s*server (\S+?):(\d+)\b/gm)].map((match) => ({ host: match[1], port: match[2] }));
    expect(servers.map((server) => server.host).sort()).toEqual(REPLICAS);
    for (const server of servers) expect(server.port).toBe(services[server.host!]!.environment!.PORT);
    expect(nginx).toContain(`proxy_pass http://${upstream![1]};`);
  });

  it('lets through every body the API accepts, so the API answers oversized ones itself', () => {
    const limit = /client_max_body_size (\d+)m;/.exec(nginx);
    expect(limit).not.toBeNull();
    expect(Number(limit![1]) * 1024 * 1024).toBeGreaterThan(Math.max(BODY_LIMITS.requestBytes, HOOK_LIMITS.batchBytes));
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { findMemory, listUsers, type Executor, type OrgScope, type OwnerScope } from '../src';
import { orgScopeOf, ownerScopeOf } from '../src/system';

/*
 * Scopes are branded: tenant code cannot make one from an object literal, only receive
 * one from authentication (or from orgScopeOf / ownerScopeOf after loading the row, which
 * only the system entry point exports). `pnpm typecheck` compiles this file: each
 * `@ts-expect-error` below fails the build if the line ever type-checks.
 */
declare const ex: Executor;

describe('owner and org scopes', () => {
  it('reject object literals', () => {
    expectTypeOf({ orgId: 'org_1', userId: 'usr_1', role: 'member' as const }).not.toMatchTypeOf<OwnerScope>();
    expectTypeOf({ orgId: 'org_1' }).not.toMatchTypeOf<OrgScope>();
    const forged = () => {
      // @ts-expect-error — an object literal is not an owner scope
      void findMemory(ex, { orgId: 'org_1', userId: 'usr_1', role: 'owner' }, 'mem_1');
      // @ts-expect-error — nor an org scope
      void listUsers(ex, { orgId: 'org_1' });
    };
    expect(forged).toBeTypeOf('function');
  });

  it('are made from loaded rows, and an owner scope serves where an org scope is asked for', () => {
    const owner = ownerScopeOf({ orgId: 'org_1', id: 'usr_1', role: 'admin' });
    const org = orgScopeOf({ id: 'org_1' });
    expectTypeOf(owner).toMatchTypeOf<OrgScope>();
    expect(owner).toEqual({ orgId: 'org_1', userId: 'usr_1', role: 'admin' });
    expect(org).toEqual({ orgId: 'org_1' });
  });
});

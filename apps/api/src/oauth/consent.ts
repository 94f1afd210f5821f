import type { IncomingMessage, ServerResponse } from 'node:http';
import { findOrg, findUser, listOAuthGrants, type ApiKeyScope, type Database, type Role } from '@memory-bank/db';
import { keepOAuthClient } from '@memory-bank/db/system';
import type Provider from 'oidc-provider';
import type { Principal } from '../auth/principal';
import { AppError } from '../errors';
import type { OAuthGrantService } from '../services/oauth-grants';
import { recordRef } from './adapter';
import { AGENT_SCOPES, GRANTABLE_SCOPES, SCOPE_DESCRIPTIONS, type OAuthUrls } from './settings';

/** The browser's request and response: the interaction is the one its cookie names. */
export interface BrowserExchange {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export interface ConsentRequest {
  client: { clientId: string; clientName: string | null; clientUri: string | null; redirectHost: string; redirectHostDiffers: boolean };
  org: { id: string; name: string };
  user: { id: string; email: string | null; role: Role };
  scopes: { scope: ApiKeyScope; description: string }[];
  /** The person already allowed this client these scopes: the console goes on without asking. */
  remembered: boolean;
}

export interface ConsentDeps {
  db: Database;
  urls: OAuthUrls;
  provider: () => Promise<Provider>;
  /** Records each grant given (its client's name, the audit trail). */
  grants: OAuthGrantService;
}

const expired = () => new AppError('not_found', 'This sign-in request has expired or was started in another browser; start again from the app');

const grantable = (scope: string): scope is ApiKeyScope => (GRANTABLE_SCOPES as readonly string[]).includes(scope);

/**
 * Sign-in and consent for the authorization server, answered by the console: the person
 * signs in to the console as always (API key or single sign-on), then allows or denies the
 * client. The interaction is the one the browser's cookie names, so a link to someone
 * else's authorization request cannot be approved by another person's browser.
 */
export function createConsent({ db, urls, provider, grants }: ConsentDeps) {
  async function interactionOf(browser: BrowserExchange, uid: string) {
    const oidc = await provider();
    let interaction;
    try {
      interaction = await oidc.interactionDetails(browser.incoming, browser.outgoing);
    } catch {
      throw expired();
    }
    if (interaction.uid !== uid) throw expired();
    const clientId = String(interaction.params.client_id ?? '');
    const client = await oidc.Client.find(clientId);
    if (!client) throw expired();
    return { oidc, interaction, client };
  }

  /** The API scopes asked for (the agent's two when none are named). */
  function requestedScopes(requested: unknown): ApiKeyScope[] {
    const named = typeof requested === 'string' ? requested.split(' ').filter(grantable) : [];
    return named.length > 0 ? named : [...AGENT_SCOPES];
  }

  /** The scopes asked for that this person's credential may give. */
  const scopesFor = (requested: unknown, principal: Principal): ApiKeyScope[] => requestedScopes(requested).filter((scope) => principal.scopes.includes(scope));

  /** The person's existing grant for this client that covers `scopes`, if any. */
  async function rememberedGrant(principal: Principal, clientId: string, scopes: readonly string[]) {
    const grants = await listOAuthGrants(db, principal.scope, principal.scope.userId);
    return grants.find((grant) => {
      if (grant.clientId !== clientId) return false;
      const held = String(((grant.payload.resources ?? {}) as Record<string, unknown>)[urls.resource] ?? '').split(' ');
      return scopes.every((scope) => held.includes(scope));
    });
  }

  function requireSignedIn(principal: Principal): void {
    if (principal.via !== 'api_key' && principal.via !== 'oidc') throw new AppError('forbidden', 'Sign in to the console as a person to connect an app');
  }

  return {
    async details(browser: BrowserExchange, uid: string, principal: Principal): Promise<ConsentRequest> {
      requireSignedIn(principal);
      const { interaction, client } = await interactionOf(browser, uid);
      const scopes = scopesFor(interaction.params.scope, principal);
      const [org, user] = await Promise.all([findOrg(db, principal.scope), findUser(db, principal.scope, principal.scope.userId)]);
      const redirect = new URL(String(interaction.params.redirect_uri));
      const clientHost = URL.canParse(client.clientId) ? new URL(client.clientId).host : client.clientUri && URL.canParse(client.clientUri) ? new URL(client.clientUri).host : null;
      return {
        client: {
          clientId: client.clientId,
          clientName: client.clientName ?? null,
          clientUri: client.clientUri ?? null,
          redirectHost: redirect.host,
          redirectHostDiffers: clientHost !== redirect.host,
        },
        org: { id: principal.scope.orgId, name: org?.name ?? '' },
        user: { id: principal.scope.userId, email: user?.email ?? null, role: principal.scope.role },
        scopes: scopes.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
        remembered: scopes.length > 0 && (await rememberedGrant(principal, client.clientId, scopes)) !== undefined,
      };
    },

    /** Allows or denies; where the browser goes next (back to the authorization server, then to the client). */
    async decide(browser: BrowserExchange, uid: string, principal: Principal, decision: 'allow' | 'deny'): Promise<string> {
      requireSignedIn(principal);
      const { oidc, interaction, client } = await interactionOf(browser, uid);
      const scopes = scopesFor(interaction.params.scope, principal);
      if (decision === 'deny' || scopes.length === 0) {
        const description = decision === 'deny' ? 'The person denied access' : 'None of the requested scopes are allowed for this account';
        return oidc.interactionResult(browser.incoming, browser.outgoing, { error: 'access_denied', error_description: description }, { mergeWithLastSubmission: false });
      }
      const accountId = principal.scope.userId;
      // One grant per person and client: the session's, else the one remembered, else a new one.
      const existing = interaction.grantId ? await oidc.Grant.find(interaction.grantId) : undefined;
      const remembered = await rememberedGrant(principal, client.clientId, []);
      const grant =
        (existing?.accountId === accountId ? existing : undefined) ??
        (remembered ? await oidc.Grant.find(remembered.id) : undefined) ??
        new oidc.Grant({ accountId, clientId: client.clientId });
      grant.addResourceScope(urls.resource, scopes.join(' '));
      // What the person may not give is refused for good, so it is not asked for again.
      const refused = requestedScopes(interaction.params.scope).filter((scope) => !scopes.includes(scope));
      if (refused.length > 0) grant.rejectResourceScope(urls.resource, refused.join(' '));
      const oidcScopes = String(interaction.params.scope ?? '').split(' ').filter((scope) => scope === 'openid' || scope === 'offline_access');
      if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
      const grantId = await grant.save();
      await keepOAuthClient(db, recordRef('Client', client.clientId));
      await grants.recordGranted(principal, { id: grantId, clientName: client.clientName ?? null, scopes: scopes.length });
      return oidc.interactionResult(browser.incoming, browser.outgoing, { login: { accountId }, consent: { grantId } });
    },
  };
}

export type Consent = ReturnType<typeof createConsent>;

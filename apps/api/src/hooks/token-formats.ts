/**
 * Credentials recognisable by their own shape: a vendor prefix, then a body of fixed
 * alphabet and length. Each format is declared once here, with the kind its marker shows.
 *
 * They are found in one scan rather than one pass each: a single regex looks for any of
 * the literal prefixes, and only where one occurs are that prefix's formats tried, anchored
 * (sticky) at that position. Text with no prefix in it costs one pass whatever the number
 * of formats.
 */
export interface TokenFormat {
  kind: string;
  /** Literal text every token of the format contains; the scan looks for these. */
  prefixes: readonly string[];
  /** The whole token, with its end guard. Tried at the prefix (or `back` characters before it). */
  pattern: RegExp;
  /** Characters the token has before its prefix (a fixed-length head, e.g. Mailchimp's hex). */
  back?: number;
  /** Whether a match is a token rather than text of the same shape. Default: always. */
  accept?: (token: string) => boolean;
}

// `sk-` slugs such as `sk-fading-circle-spinner-css` have no digit and no capital letter.
const looksRandom = (token: string): boolean => /[0-9A-Z]/.test(token.slice(3));

// Bodies that may hold a character which cannot start a token (`.`, `/`, `=`, `+`) have
// an upper bound: else `ops_eyJ/ops_eyJ/…` would rescan the rest of the text at each one.

/** Longest prefix first where one format's prefix starts another's (`sk-ant-` before `sk-`). */
export const TOKEN_FORMATS: readonly TokenFormat[] = [
  // AI providers
  { kind: 'anthropic_key', prefixes: ['sk-ant-'], pattern: /sk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'openai_key', prefixes: ['sk-'], pattern: /sk-(?!ant-)[A-Za-z0-9_-]{20,}/, accept: looksRandom },
  { kind: 'huggingface_token', prefixes: ['hf_', 'api_org_'], pattern: /(?:hf|api_org)_[A-Za-z0-9]{30,40}(?![A-Za-z0-9_-])/ },
  { kind: 'groq_key', prefixes: ['gsk_'], pattern: /gsk_[A-Za-z0-9]{48,56}(?![A-Za-z0-9])/ },
  { kind: 'replicate_token', prefixes: ['r8_'], pattern: /r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])/ },
  { kind: 'perplexity_key', prefixes: ['pplx-'], pattern: /pplx-[A-Za-z0-9]{48}(?![A-Za-z0-9])/ },
  { kind: 'xai_key', prefixes: ['xai-'], pattern: /xai-[A-Za-z0-9]{80}(?![A-Za-z0-9])/ },
  { kind: 'langsmith_key', prefixes: ['lsv2_'], pattern: /lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![a-f0-9])/ },
  // Clouds
  {
    kind: 'aws_access_key_id',
    prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'A3T'],
    pattern: /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}(?![A-Za-z0-9])/,
  },
  { kind: 'google_api_key', prefixes: ['AIza'], pattern: /AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/ },
  { kind: 'google_oauth_secret', prefixes: ['GOCSPX-'], pattern: /GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/ },
  { kind: 'google_oauth_token', prefixes: ['ya29.'], pattern: /ya29\.[A-Za-z0-9_-]{30,}/ },
  { kind: 'fcm_server_key', prefixes: [':APA91b'], back: 11, pattern: /AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}/ },
  {
    // Storage and Service Bus connection strings: `AccountKey=…;`, `SharedAccessKey=…;`.
    kind: 'azure_shared_key',
    prefixes: ['AccountKey=', 'SharedAccessKey='],
    pattern: /(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{40,88}={0,2}/,
  },
  // Entra ID (Azure AD) client secrets: three characters, a digit, `Q~`, then 31–34 more.
  { kind: 'azure_client_secret', prefixes: ['Q~'], back: 4, pattern: /[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/ },
  { kind: 'digitalocean_token', prefixes: ['dop_v1_', 'doo_v1_', 'dor_v1_'], pattern: /do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])/ },
  { kind: 'heroku_key', prefixes: ['HRKU-'], pattern: /HRKU-[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])/ },
  { kind: 'alibaba_access_key_id', prefixes: ['LTAI'], pattern: /LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])/ },
  // Code hosting, packages, CI
  {
    kind: 'github_token',
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /(?:gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{20,})/,
  },
  {
    kind: 'gitlab_token',
    prefixes: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'gloas-', 'glcbt-', 'glimt-', 'glsoat-', 'glffct-', 'glagent-', 'GR1348941'],
    pattern: /(?:gl(?:pat|dt|rt|ptt|oas|cbt|imt|soat|ffct|agent)-|GR1348941)[A-Za-z0-9_-]{20,}/,
  },
  { kind: 'npm_token', prefixes: ['npm_'], pattern: /npm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])/ },
  { kind: 'pypi_token', prefixes: ['pypi-AgE'], pattern: /pypi-AgE[A-Za-z0-9_-]{50,}/ },
  { kind: 'rubygems_key', prefixes: ['rubygems_'], pattern: /rubygems_[a-f0-9]{48}(?![a-f0-9])/ },
  { kind: 'docker_token', prefixes: ['dckr_pat_', 'dckr_oat_'], pattern: /dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}/ },
  { kind: 'buildkite_token', prefixes: ['bkua_'], pattern: /bkua_[a-f0-9]{40}(?![a-f0-9])/ },
  { kind: 'vercel_token', prefixes: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], pattern: /vc[pickr]_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])/ },
  { kind: 'pulumi_token', prefixes: ['pul-'], pattern: /pul-[a-f0-9]{40}(?![a-f0-9])/ },
  { kind: 'terraform_token', prefixes: ['.atlasv1.'], back: 14, pattern: /[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,100}/ },
  // Chat and messaging
  {
    kind: 'slack_token',
    prefixes: ['xox', 'xapp-'],
    pattern: /(?:xoxe\.)?(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/,
  },
  { kind: 'slack_webhook', prefixes: ['hooks.slack.com/'], pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/ },
  { kind: 'discord_webhook', prefixes: ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'], pattern: /discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/ },
  { kind: 'twilio_key', prefixes: ['SK'], pattern: /SK[0-9a-fA-F]{32}(?![0-9a-zA-Z])/ },
  { kind: 'sendgrid_key', prefixes: ['SG.'], pattern: /SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/ },
  { kind: 'mailgun_key', prefixes: ['key-'], pattern: /key-[0-9a-f]{32}(?![0-9a-zA-Z])/ },
  { kind: 'mailchimp_key', prefixes: ['-us'], back: 32, pattern: /[0-9a-f]{32}-us\d{1,2}(?![0-9a-zA-Z])/ },
  // Payments and commerce
  {
    kind: 'stripe_key',
    prefixes: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'pk_live_', 'pk_test_', 'whsec_'],
    pattern: /(?:(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})/,
  },
  { kind: 'square_token', prefixes: ['EAAA', 'sq0atp-', 'sq0csp-'], pattern: /(?:EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_+/=-])|sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43})/ },
  { kind: 'shopify_token', prefixes: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], pattern: /shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,64}(?![A-Za-z0-9])/ },
  // Data, secrets management, observability, productivity
  { kind: 'databricks_token', prefixes: ['dapi'], pattern: /dapi[a-f0-9]{32}(?:-\d)?(?![a-f0-9])/ },
  { kind: 'doppler_token', prefixes: ['dp.'], pattern: /dp\.(?:st|ct|sa|scim|audit|pt)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}(?![A-Za-z0-9])/ },
  { kind: 'planetscale_token', prefixes: ['pscale_'], pattern: /pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}/ },
  { kind: 'vault_token', prefixes: ['hvs.', 'hvb.', 'hvr.'], pattern: /hv[sbr]\.[A-Za-z0-9_-]{24,}/ },
  { kind: 'onepassword_token', prefixes: ['ops_eyJ'], pattern: /ops_eyJ[A-Za-z0-9+/=]{100,1300}/ },
  { kind: 'age_secret_key', prefixes: ['AGE-SECRET-KEY-1'], pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/ },
  { kind: 'linear_key', prefixes: ['lin_api_', 'lin_oauth_'], pattern: /lin_(?:api|oauth)_[A-Za-z0-9_]{32,128}(?![A-Za-z0-9_])/ },
  { kind: 'notion_token', prefixes: ['ntn_', 'secret_'], pattern: /(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9])/ },
  { kind: 'postman_key', prefixes: ['PMAK-'], pattern: /PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![a-f0-9])/ },
  { kind: 'atlassian_token', prefixes: ['ATATT3', 'ATCTT3'], pattern: /AT[AC]TT3[A-Za-z0-9_=-]{100,300}/ },
  { kind: 'figma_token', prefixes: ['figd_'], pattern: /figd_[A-Za-z0-9_-]{40,200}/ },
  { kind: 'contentful_token', prefixes: ['CFPAT-'], pattern: /CFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/ },
  { kind: 'dropbox_token', prefixes: ['sl.'], pattern: /sl\.[A-Za-z0-9_-]{130,}/ },
  { kind: 'tailscale_key', prefixes: ['tskey-'], pattern: /tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}/ },
  { kind: 'mapbox_secret_token', prefixes: ['sk.eyJ'], pattern: /sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}/ },
  {
    kind: 'grafana_token',
    prefixes: ['glc_', 'glsa_', 'eyJrIjoi'],
    pattern: /(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Fa-f0-9])|eyJrIjoi[A-Za-z0-9+/]{40,200}={0,2})/,
  },
  { kind: 'newrelic_key', prefixes: ['NRAK-', 'NRJS-', 'NRII-', 'NRAA-'], pattern: /NR(?:AK|JS|II|AA)-[A-Za-z0-9]{19,32}(?![A-Za-z0-9])/ },
  { kind: 'sentry_token', prefixes: ['sntrys_eyJ', 'sntryu_'], pattern: /(?:sntrys_eyJ[A-Za-z0-9+/=_-]{50,400}|sntryu_[a-f0-9]{64}(?![a-f0-9]))/ },
  // Tokens of any issuer, and ours
  { kind: 'jwt', prefixes: ['eyJ'], pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/ },
  { kind: 'memory_bank_key', prefixes: ['mbk_'], pattern: /mbk_[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])/ },
];

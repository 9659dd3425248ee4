// An OpenID Connect provider on 127.0.0.1 for the sign-in tests: node-oidc-provider with its development login
// form, which accepts any login name. An account's roles come from its name: "alice-admin" has the app role
// BenchWeb.Admin, "bob-runner" BenchWeb.Runner, "carol-viewer" BenchWeb.Viewer; any other name has none.
// Usage: node oidc-server.mjs <port> <client_id> <client_secret> <redirect_uri> <post_logout_redirect_uri>
import Provider from "oidc-provider";

const [portText, clientId, clientSecret, redirectUri, postLogoutRedirectUri] = process.argv.slice(2);
const port = Number.parseInt(portText ?? "0", 10);
const roleFor = { admin: "BenchWeb.Admin", runner: "BenchWeb.Runner", viewer: "BenchWeb.Viewer" };

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [postLogoutRedirectUri],
    response_types: ["code"],
    grant_types: ["authorization_code"],
    token_endpoint_auth_method: "client_secret_post",
  }],
  claims: { openid: ["sub"], profile: ["name"], roles: ["roles"] },
  scopes: ["openid", "profile", "roles"],
  // The roles travel in the ID token, as Entra ID's app roles do.
  conformIdTokenClaims: false,
  cookies: { keys: ["benchweb-test-only-cookie-key"] },
  async findAccount(ctx, id) {
    const suffix = id.split("-").pop();
    return {
      accountId: id,
      async claims() {
        return { sub: id, name: id, roles: roleFor[suffix] ? [roleFor[suffix]] : [] };
      },
    };
  },
});
provider.proxy = false;
const server = provider.listen(port, "127.0.0.1", () => {
  console.log(`oidc-provider listening on http://127.0.0.1:${server.address().port}/`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}

using BenchWeb.Guard.Security;

namespace BenchWeb.Tests.Support;

/// <summary>Who acts when a test calls a service directly (the pages and the API build theirs from the signed-in
/// user). Addresses from the documentation range, so an audit entry's origin is recognisably the test's.</summary>
public static class TestActors
{
    public static Actor Runner { get; } = new(UserDirectory.LocalId("test Runner"), "test Runner", BenchWebRoles.Runner, SignInSources.Local, "192.0.2.10");

    public static Actor Admin { get; } = new(UserDirectory.LocalId("test Admin"), "test Admin", BenchWebRoles.Admin, SignInSources.Local, "192.0.2.20");
}

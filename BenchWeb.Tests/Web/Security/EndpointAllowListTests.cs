using BenchEngine.Targets;
using BenchWeb.Guard.Security;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Web.Security;

[UnitTest]
public sealed class EndpointAllowListTests
{
    private static readonly IReadOnlyList<string> Defaults = EndpointAllowList.BuiltInPatterns;

    [Fact]
    public void BuiltInPatterns_AreTheServiceHostsOfEveryModuleWithEndpoints_InRegistryOrder()
    {
        Assert.Equal(
            TargetRegistry.All.OfType<IServiceEndpoints>().SelectMany(m => m.ServiceHostPatterns).Distinct(StringComparer.Ordinal),
            Defaults);
        Assert.Equal(
        [
            "*.documents.azure.com", "*.cosmos.azure.com", "*.documents.azure.cn", "*.documents.azure.us",
            "*.table.core.windows.net", "*.table.core.chinacloudapi.cn", "*.table.core.usgovcloudapi.net",
            "*.table.cosmos.azure.com", "*.table.cosmos.azure.cn", "*.table.cosmos.azure.us",
            "*.blob.core.windows.net", "*.blob.core.chinacloudapi.cn", "*.blob.core.usgovcloudapi.net",
            "*.queue.core.windows.net", "*.queue.core.chinacloudapi.cn", "*.queue.core.usgovcloudapi.net",
            "*.redis.cache.windows.net", "*.redis.cache.chinacloudapi.cn", "*.redis.cache.usgovcloudapi.net",
        ],
            Defaults);
    }

    [Theory]
    [InlineData("*.documents.azure.com", "acme.documents.azure.com", true)]
    [InlineData("*.documents.azure.com", "ACME.Documents.Azure.com.", true)]
    [InlineData("*.documents.azure.com", "acme-westeurope.documents.azure.com", true)]
    [InlineData("*.documents.azure.com", "documents.azure.com.evil.example", false)]
    [InlineData("*.documents.azure.com", "acme.documents.azure.com.evil.example", false)]
    [InlineData("*.documents.azure.com", "documents.azure.com", false)]
    [InlineData("*.documents.azure.com", "evildocuments.azure.com", false)]
    [InlineData("*.documents.azure.com", "a.b.documents.azure.com", false)]
    [InlineData("*.table.core.windows.net", "acme.table.core.windows.net", true)]
    [InlineData("*.table.core.windows.net", "acme.blob.core.windows.net", false)]
    [InlineData("*.cosmos.azure.com", "acme.table.cosmos.azure.com", false)]
    [InlineData("*.table.cosmos.azure.com", "acme.table.cosmos.azure.com", true)]
    [InlineData("bench.example.net", "bench.example.net", true)]
    [InlineData("bench.example.net", "x.bench.example.net", false)]
    public void Matches_StarStandsForExactlyOneLabel_WhenPatternHasAWildcard(string pattern, string host, bool expected)
    {
        Assert.Equal(expected, EndpointAllowList.Matches(pattern, host));
    }

    [Theory]
    [InlineData("https://acme.documents.azure.com:443/")]
    [InlineData("https://acme.table.core.windows.net/")]
    [InlineData("https://acme.table.cosmos.azure.com:443/")]
    [InlineData("https://acme.documents.azure.us/")]
    [InlineData("https://acme.blob.core.windows.net/")]
    [InlineData("https://acme.queue.core.windows.net/")]
    [InlineData("https://acme.redis.cache.windows.net:6380/")]
    public void Check_AllowsAzureEndpoints_WhenTheDefaultListApplies(string endpoint)
    {
        Assert.Null(EndpointAllowList.Check(new Uri(endpoint), Defaults, allowLoopback: false));
    }

    [Fact]
    public void Check_RefusesAnOffListHostNamingItAndTheList_WhenNoPatternMatches()
    {
        var message = EndpointAllowList.Check(new Uri("https://documents.azure.com.evil.example/"), Defaults, allowLoopback: false);

        Assert.NotNull(message);
        Assert.Contains("'documents.azure.com.evil.example'", message, StringComparison.Ordinal);
        Assert.Contains("not on this installation's endpoint allow-list", message, StringComparison.Ordinal);
        Assert.Contains("*.documents.azure.com", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("http://acme.documents.azure.com/", "Use https for 'acme.documents.azure.com'")]
    [InlineData("ftp://acme.documents.azure.com/", "Only http or https endpoints can be used.")]
    public void Check_RefusesAnythingButHttps_WhenTheHostIsNotLoopback(string endpoint, string expected)
    {
        var message = EndpointAllowList.Check(new Uri(endpoint), Defaults, allowLoopback: true);

        Assert.NotNull(message);
        Assert.Contains(expected, message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://127.0.0.1:8081/", "127.0.0.1")]
    [InlineData("http://127.10.20.30:10002/", "127.10.20.30")]
    [InlineData("http://localhost:8081/", "localhost")]
    [InlineData("https://[::1]:8081/", "::1")]
    [InlineData("http://[::ffff:127.0.0.1]:8081/", "::ffff:127.0.0.1")]
    public void Check_RefusesLoopbackNamingTheSetting_WhenTheInstallationDoesNotEnableIt(string endpoint, string host)
    {
        var patterns = new[] { host, "*.documents.azure.com" };

        var message = EndpointAllowList.Check(new Uri(endpoint), patterns, allowLoopback: false);

        Assert.NotNull(message);
        Assert.Contains($"'{host}'", message, StringComparison.Ordinal);
        Assert.Contains("BenchWeb:Security:AllowLoopbackEndpoints", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("http://127.0.0.1:8081/")]
    [InlineData("https://localhost:8081/")]
    [InlineData("http://[::1]:10002/")]
    public void Check_AllowsLoopbackOverHttpOrHttps_WhenTheInstallationEnablesIt(string endpoint)
    {
        Assert.Null(EndpointAllowList.Check(new Uri(endpoint), Defaults, allowLoopback: true));
    }

    [Fact]
    public void Check_RefusesANonLoopbackAddress_EvenWhenLoopbackIsEnabled()
    {
        Assert.NotNull(EndpointAllowList.Check(new Uri("https://10.0.0.5/"), Defaults, allowLoopback: true));
        Assert.Null(EndpointAllowList.Check(new Uri("https://10.0.0.5/"), ["10.0.0.5"], allowLoopback: false));
    }

    [Theory]
    [InlineData("*.documents.azure.com", true)]
    [InlineData("bench.example.net", true)]
    [InlineData("10.0.0.5", true)]
    [InlineData("*.com", false)]
    [InlineData("*", false)]
    [InlineData("*.*.azure.com", false)]
    [InlineData("acme.documents.azure.com/path", false)]
    [InlineData("https://acme.documents.azure.com", false)]
    [InlineData("-bad.example.net", false)]
    [InlineData("", false)]
    public void ValidatePattern_AcceptsHostsAndOneLeadingWildcard_WhenWellFormed(string pattern, bool valid)
    {
        Assert.Equal(valid, EndpointAllowList.ValidatePattern(pattern) is null);
    }

    [Theory]
    [InlineData("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net", "https://acme.table.core.windows.net/")]
    [InlineData("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=c2VjcmV0;TableEndpoint=https://acme.table.cosmos.azure.com:443/;", "https://acme.table.cosmos.azure.com/")]
    [InlineData("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=c2VjcmV0;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;", "http://127.0.0.1:10002/")]
    [InlineData("UseDevelopmentStorage=true", "http://127.0.0.1:10002/")]
    [InlineData("c2VjcmV0LWNvc21vcy1rZXk=", null)]
    public void TableConnectionString_EndpointOf_KeepsSchemeHostAndPortOnly_WhenTheStringNamesAnEndpoint(string connectionString, string? expected)
    {
        var endpoint = StorageConnectionString.EndpointOf(connectionString, StorageConnectionString.Tables);

        Assert.Equal(expected, endpoint?.ToString());
        Assert.DoesNotContain("c2VjcmV0", endpoint?.ToString() ?? "", StringComparison.Ordinal);
    }
}

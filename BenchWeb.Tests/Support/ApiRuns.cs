using System.Text;
using System.Text.Json;
using BenchEngine.Running;

namespace BenchWeb.Tests.Support;

/// <summary>Runs launched the way a script launches them: <c>POST api/runs</c> with the plan.</summary>
internal static class ApiRuns
{
    /// <summary>Queues a run of <paramref name="plan"/> and returns its id; fails the test with the answer when refused.</summary>
    public static async Task<long> StartAsync(HttpClient http, RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(http);
        ArgumentNullException.ThrowIfNull(plan);
        using var launched = await http.PostAsync(new Uri("api/runs", UriKind.Relative), new StringContent($"{{\"plan\":{plan.ToJson()}}}", Encoding.UTF8, "application/json"));
        var answer = await launched.Content.ReadAsStringAsync();
        Assert.True(launched.IsSuccessStatusCode, answer);
        return JsonDocument.Parse(answer).RootElement.GetProperty("id").GetInt64();
    }
}

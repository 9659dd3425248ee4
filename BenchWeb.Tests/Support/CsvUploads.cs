using System.Globalization;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;

namespace BenchWeb.Tests.Support;

/// <summary>CSV workload files for upload tests, and the API calls that upload them.</summary>
public static class CsvUploads
{
    /// <summary>A server file's first line that no message may ever quote.</summary>
    public const string SecretLine = "TOP-SECRET-FIRST-LINE,do-not-quote";

    /// <summary>A BTS-like file: a header and <paramref name="rows"/> flights, each line ending in a comma as BTS lines do.</summary>
    public static string Flights(int rows)
    {
        var text = new StringBuilder("Origin,Dest,Carrier,FlightNum,DepDelay,\n");
        string[] airports = ["ATL", "ORD", "DFW", "DEN", "SEA"];
        for (var i = 0; i < rows; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{airports[i % airports.Length]},{airports[(i + 2) % airports.Length]},\"Delta, Inc.\",{i},{i % 30 - 5},\n");
        }

        return text.ToString();
    }

    public static async Task<HttpResponseMessage> PostMultipartAsync(HttpClient http, byte[] content, string fileName, string field = "file")
    {
        ArgumentNullException.ThrowIfNull(http);
        using var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(content);
        file.Headers.ContentType = new MediaTypeHeaderValue("text/csv");
        form.Add(file, field, fileName);
        return await http.PostAsync("api/files", form);
    }

    public static Task<HttpResponseMessage> PostMultipartAsync(HttpClient http, string content, string fileName) =>
        PostMultipartAsync(http, Encoding.UTF8.GetBytes(content), fileName);

    /// <summary>Uploads the text as a CSV file and returns its number.</summary>
    public static async Task<long> UploadAsync(HttpClient http, string content, string fileName = "flights.csv")
    {
        using var response = await PostMultipartAsync(http, content, fileName);
        var body = await response.Content.ReadAsStringAsync();
        if (response.StatusCode != System.Net.HttpStatusCode.Created)
        {
            throw new InvalidOperationException($"Upload answered {(int)response.StatusCode}: {body}");
        }

        return JsonNode.Parse(body)!["id"]!.GetValue<long>();
    }

    /// <summary>A file on this machine whose first line is <see cref="SecretLine"/>, and a path next to it that does not exist.</summary>
    public static (string Existing, string Missing) ServerPaths(string directory)
    {
        var existing = Path.Combine(directory, "server-secret.csv");
        File.WriteAllText(existing, SecretLine + "\n1,2\n");
        return (existing, Path.Combine(directory, "no-such-file.csv"));
    }
}

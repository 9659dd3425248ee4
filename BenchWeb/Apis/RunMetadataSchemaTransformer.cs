using BenchWeb.Provenance;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace BenchWeb.Apis;

/// <summary>Describes <see cref="RunMetadata"/> in the OpenAPI document as it travels: an object of text values within its
/// bounds. Its own JSON converter (which keeps a key given twice for the check to name) hides that from the schema's
/// generator, which would otherwise say nothing of its shape.</summary>
internal sealed class RunMetadataSchemaTransformer : IOpenApiSchemaTransformer
{
    public Task TransformAsync(OpenApiSchema schema, OpenApiSchemaTransformerContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(schema);
        ArgumentNullException.ThrowIfNull(context);
        if (context.JsonTypeInfo.Type == typeof(RunMetadata))
        {
            schema.Type = JsonSchemaType.Object;
            schema.MaxProperties = RunMetadata.MaxPairs;
            schema.PropertyNames = new OpenApiSchema { Type = JsonSchemaType.String, MinLength = 1, MaxLength = RunMetadata.MaxKeyLength };
            schema.AdditionalProperties = new OpenApiSchema { Type = JsonSchemaType.String, MaxLength = RunMetadata.MaxValueLength };
            schema.Description = "Where the run came from, e.g. {\"commit\": \"1a2b3c4\", \"branch\": \"main\", \"build\": \"812\", \"pipeline\": \"https://…\"}: "
                + "text values, no control or bidirectional-text characters, no '=' in a key, no space at either end, each key once.";
        }

        return Task.CompletedTask;
    }
}

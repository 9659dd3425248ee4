using System.Security.Cryptography;

namespace BenchWeb.Guard.Security;

/// <summary>Random sign-in and API tokens, and the hash under which they are kept (never the token itself).</summary>
public static class SecretToken
{
    /// <summary>A new token: the prefix and 32 random bytes, URL-safe.</summary>
    public static string Create(string prefix) => prefix + Base64Url(RandomNumberGenerator.GetBytes(32));

    /// <summary>SHA-256, hex: tokens have 256 random bits, so a fast hash is enough, and lookups by hash stay exact.</summary>
    public static string Hash(string token) => Convert.ToHexStringLower(SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(token)));

    private static string Base64Url(byte[] bytes) => Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
}

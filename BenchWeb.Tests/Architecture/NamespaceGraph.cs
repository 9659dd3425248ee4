using System.Reflection;
using System.Reflection.Emit;

namespace BenchWeb.Tests.Architecture;

/// <summary>Which folders of an assembly reach which, from its compiled code: every type a folder's types name in their
/// signatures, fields, base types and method bodies (calls, fields, types, tokens), grouped by folder (the namespace's
/// segment after the root: <c>BenchWeb.History.X</c> is <c>History</c>).</summary>
internal static class NamespaceGraph
{
    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    private const BindingFlags Everything = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    /// <summary>Folder → the other folders of the same root it reaches directly.</summary>
    public static Dictionary<string, HashSet<string>> Of(Assembly assembly, string root)
    {
        var graph = new Dictionary<string, HashSet<string>>(StringComparer.Ordinal);
        foreach (var type in assembly.GetTypes())
        {
            if (FolderOf(type, root) is not { } from)
            {
                continue;
            }

            var reached = graph.TryGetValue(from, out var set) ? set : graph[from] = new HashSet<string>(StringComparer.Ordinal);
            foreach (var used in TypesUsedBy(type))
            {
                if (FolderOf(used, root) is { } to && to != from)
                {
                    reached.Add(to);
                }
            }
        }

        return graph;
    }

    /// <summary>The folders that reach each other, directly or through others: each group of two or more.</summary>
    public static List<SortedSet<string>> Loops(Dictionary<string, HashSet<string>> graph)
    {
        var reach = graph.Keys.ToDictionary(k => k, k => Reachable(graph, k), StringComparer.Ordinal);
        var loops = new List<SortedSet<string>>();
        foreach (var folder in graph.Keys.Order(StringComparer.Ordinal))
        {
            if (loops.Any(l => l.Contains(folder)))
            {
                continue;
            }

            var loop = new SortedSet<string>(graph.Keys.Where(other => reach[folder].Contains(other) && reach[other].Contains(folder)), StringComparer.Ordinal) { folder };
            if (loop.Count > 1)
            {
                loops.Add(loop);
            }
        }

        return loops;
    }

    public static HashSet<string> Reachable(Dictionary<string, HashSet<string>> graph, string from)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var next = new Stack<string>(graph.GetValueOrDefault(from) ?? []);
        while (next.TryPop(out var folder))
        {
            if (seen.Add(folder))
            {
                foreach (var further in graph.GetValueOrDefault(folder) ?? [])
                {
                    next.Push(further);
                }
            }
        }

        return seen;
    }

    private static string? FolderOf(Type type, string root)
    {
        // A nested or compiler-made type (a lambda's closure, an async state machine) counts for the type it is in.
        while (type.DeclaringType is { } outer)
        {
            type = outer;
        }

        var name = type.Namespace;
        if (name is null || !(name == root || name.StartsWith(root + ".", StringComparison.Ordinal)))
        {
            return null;
        }

        var rest = name.Length == root.Length ? "" : name[(root.Length + 1)..];
        var dot = rest.IndexOf('.', StringComparison.Ordinal);
        return rest.Length == 0 ? "(root)" : dot < 0 ? rest : rest[..dot];
    }

    private static IEnumerable<Type> TypesUsedBy(Type type)
    {
        var used = new List<Type>();
        if (type.BaseType is { } baseType)
        {
            used.Add(baseType);
        }

        used.AddRange(type.GetInterfaces());
        used.AddRange(type.GetFields(Everything).Select(f => f.FieldType));
        used.AddRange(type.GetProperties(Everything).Select(p => p.PropertyType));
        foreach (var method in type.GetMethods(Everything).Cast<MethodBase>().Concat(type.GetConstructors(Everything)))
        {
            if (method is MethodInfo info)
            {
                used.Add(info.ReturnType);
            }

            used.AddRange(method.GetParameters().Select(p => p.ParameterType));
            used.AddRange(TypesInBody(method));
        }

        return used.SelectMany(Flatten);
    }

    private static IEnumerable<Type> Flatten(Type type)
    {
        if (type.HasElementType && type.GetElementType() is { } element)
        {
            foreach (var inner in Flatten(element))
            {
                yield return inner;
            }

            yield break;
        }

        yield return type;
        if (type.IsGenericType)
        {
            foreach (var argument in type.GetGenericArguments().SelectMany(Flatten))
            {
                yield return argument;
            }
        }
    }

    private static List<Type> TypesInBody(MethodBase method) =>
        [.. MembersInBody(method).Select(m => m as Type ?? m.DeclaringType).OfType<Type>()];

    /// <summary>The members (types, methods, fields) each method of <paramref name="type"/> and of the types the compiler made
    /// for it (lambdas, async methods) names in its body, with the type that names them.</summary>
    public static IEnumerable<(Type User, MemberInfo Member)> MembersUsedBy(Type type) =>
        type.GetMethods(Everything).Cast<MethodBase>().Concat(type.GetConstructors(Everything))
            .SelectMany(method => MembersInBody(method).Select(member => (type, member)))
            .Concat(type.GetNestedTypes(Everything).SelectMany(MembersUsedBy));

    private static List<MemberInfo> MembersInBody(MethodBase method)
    {
        var members = new List<MemberInfo>();
        byte[]? il;
        try
        {
            il = method.GetMethodBody()?.GetILAsByteArray();
        }
        catch (BadImageFormatException)
        {
            il = null;
        }

        if (il is null)
        {
            return members;
        }

        var module = method.Module;
        var typeArguments = method.DeclaringType is { IsGenericType: true } declaring ? declaring.GetGenericArguments() : null;
        var methodArguments = method is MethodInfo { IsGenericMethod: true } generic ? generic.GetGenericArguments() : null;
        for (var i = 0; i < il.Length;)
        {
            short value = il[i++];
            if (value == 0xFE)
            {
                value = (short)(0xFE00 | il[i++]);
            }

            if (!OpCodesByValue.TryGetValue(value, out var code))
            {
                break;
            }

            switch (code.OperandType)
            {
                case OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok:
                    var token = BitConverter.ToInt32(il, i);
                    i += 4;
                    try
                    {
                        if (module.ResolveMember(token, typeArguments, methodArguments) is { } member)
                        {
                            members.Add(member);
                        }
                    }
                    catch (ArgumentException)
                    {
                    }

                    break;
                case OperandType.InlineSwitch:
                    var count = BitConverter.ToInt32(il, i);
                    i += 4 + (4 * count);
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    i += 1;
                    break;
                case OperandType.InlineVar:
                    i += 2;
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    i += 8;
                    break;
                case OperandType.InlineNone:
                    break;
                default:
                    i += 4;
                    break;
            }
        }

        return members;
    }
}

namespace BenchWeb.Profiles;

/// <summary>What one input of the profile editor binds to: a setting of the draft's plan, read and written through its
/// descriptor. Its <see cref="Value"/> is the input's field, so a rule's message marks this input and no other.</summary>
/// <typeparam name="T">The value as the input edits it (a percentage, a number typed into a box).</typeparam>
public sealed class SettingInput<T>(Func<T> get, Action<T> set)
{
    public T Value
    {
        get => get();
        set => set(value);
    }
}

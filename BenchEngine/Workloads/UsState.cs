namespace BenchEngine.Workloads;

/// <summary>The state columns of a BTS row: two-letter code, FIPS code, name and world area code (WAC),
/// kept together so an airport's four state columns can never disagree.</summary>
internal sealed record UsState(string Code, string Fips, string Name, string Wac)
{
    public static readonly UsState Alabama = new("AL", "01", "Alabama", "51");
    public static readonly UsState Arizona = new("AZ", "04", "Arizona", "81");
    public static readonly UsState California = new("CA", "06", "California", "91");
    public static readonly UsState Colorado = new("CO", "08", "Colorado", "82");
    public static readonly UsState Florida = new("FL", "12", "Florida", "33");
    public static readonly UsState Georgia = new("GA", "13", "Georgia", "34");
    public static readonly UsState Idaho = new("ID", "16", "Idaho", "83");
    public static readonly UsState Illinois = new("IL", "17", "Illinois", "41");
    public static readonly UsState Massachusetts = new("MA", "25", "Massachusetts", "13");
    public static readonly UsState Michigan = new("MI", "26", "Michigan", "43");
    public static readonly UsState Minnesota = new("MN", "27", "Minnesota", "63");
    public static readonly UsState Nevada = new("NV", "32", "Nevada", "85");
    public static readonly UsState NewJersey = new("NJ", "34", "New Jersey", "21");
    public static readonly UsState NewMexico = new("NM", "35", "New Mexico", "86");
    public static readonly UsState NewYork = new("NY", "36", "New York", "22");
    public static readonly UsState NorthCarolina = new("NC", "37", "North Carolina", "36");
    public static readonly UsState Pennsylvania = new("PA", "42", "Pennsylvania", "23");
    public static readonly UsState Tennessee = new("TN", "47", "Tennessee", "54");
    public static readonly UsState Texas = new("TX", "48", "Texas", "74");
    public static readonly UsState Utah = new("UT", "49", "Utah", "87");
    public static readonly UsState Vermont = new("VT", "50", "Vermont", "16");
    public static readonly UsState Washington = new("WA", "53", "Washington", "93");
}

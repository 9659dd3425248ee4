namespace BenchEngine.Workloads;

/// <summary>
/// A US airport as the BTS on-time file describes it. Values are the strings the seed loader stored,
/// so a generated row is indistinguishable in shape and size from an imported one.
/// </summary>
/// <remarks><c>Weight</c> is a relative share of departures: the hubs dominate real traffic, and that
/// skew is what makes Origin an uneven partition key.</remarks>
internal sealed record Airport(
    string Code,
    string AirportId,
    string AirportSeqId,
    string CityMarketId,
    string CityName,
    UsState State,
    int Weight)
{
    /// <summary>Large hubs, a few mid-size airports and some small ones, weighted roughly by departures.</summary>
    public static IReadOnlyList<Airport> UnitedStates { get; } =
    [
        new("ATL", "10397", "1039705", "30397", "Atlanta, GA", UsState.Georgia, 100),
        new("ORD", "13930", "1393003", "30977", "Chicago, IL", UsState.Illinois, 80),
        new("DFW", "11298", "1129803", "30194", "Dallas/Fort Worth, TX", UsState.Texas, 75),
        new("DEN", "11292", "1129202", "30325", "Denver, CO", UsState.Colorado, 65),
        new("LAX", "12892", "1289203", "32575", "Los Angeles, CA", UsState.California, 60),
        new("SFO", "14771", "1477103", "32457", "San Francisco, CA", UsState.California, 42),
        new("PHX", "14107", "1410702", "30466", "Phoenix, AZ", UsState.Arizona, 40),
        new("IAH", "12266", "1226603", "31453", "Houston, TX", UsState.Texas, 40),
        new("LAS", "12889", "1288903", "32211", "Las Vegas, NV", UsState.Nevada, 38),
        new("CLT", "11057", "1105703", "31057", "Charlotte, NC", UsState.NorthCarolina, 38),
        new("MSP", "13487", "1348702", "31650", "Minneapolis, MN", UsState.Minnesota, 33),
        new("DTW", "11433", "1143302", "31295", "Detroit, MI", UsState.Michigan, 33),
        new("SEA", "14747", "1474703", "30559", "Seattle, WA", UsState.Washington, 32),
        new("MCO", "13204", "1320402", "31454", "Orlando, FL", UsState.Florida, 30),
        new("EWR", "11618", "1161802", "31703", "Newark, NJ", UsState.NewJersey, 28),
        new("BOS", "10721", "1072102", "30721", "Boston, MA", UsState.Massachusetts, 28),
        new("LGA", "12953", "1295302", "31703", "New York, NY", UsState.NewYork, 28),
        new("SLC", "14869", "1486903", "34614", "Salt Lake City, UT", UsState.Utah, 26),
        new("JFK", "12478", "1247802", "31703", "New York, NY", UsState.NewYork, 24),
        new("PHL", "14100", "1410002", "34100", "Philadelphia, PA", UsState.Pennsylvania, 22),
        new("MIA", "13303", "1330303", "32467", "Miami, FL", UsState.Florida, 18),
        new("MEM", "13244", "1324402", "33244", "Memphis, TN", UsState.Tennessee, 8),
        new("ABQ", "10140", "1014002", "30140", "Albuquerque, NM", UsState.NewMexico, 5),
        new("ELP", "11540", "1154002", "31540", "El Paso, TX", UsState.Texas, 4),
        new("BHM", "10599", "1059902", "30599", "Birmingham, AL", UsState.Alabama, 4),
        new("BOI", "10713", "1071302", "30713", "Boise, ID", UsState.Idaho, 3),
        new("BTV", "10785", "1078503", "30785", "Burlington, VT", UsState.Vermont, 2),
    ];
}

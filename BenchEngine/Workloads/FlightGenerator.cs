using System.Globalization;

namespace BenchEngine.Workloads;

/// <summary>
/// Schema-faithful rows of the BTS on-time file (its first 50 columns, stored as strings like the seed
/// loader did), because the real file cannot be downloaded where the benchmark runs. What matters for a
/// write benchmark is kept: the row size, Origin skewed towards the hubs (the partition key), times and
/// delays that add up, and the ~2 % of cancelled flights whose actual-time columns are empty.
/// </summary>
internal sealed class FlightGenerator(Random random) : IFieldSource
{
    public const string Summary = "Flight record (50 columns, ~1,056 B)";

    // January 2015, the month of the seed-000 file.
    private const int Year = 2015;
    private const int Month = 1;
    private const double CancelledShare = 0.02;
    private const double DivertedShare = 0.002;
    private const int MinutesPerDay = 24 * 60;

    private static readonly string[] Columns =
    [
        "Year", "Quarter", "Month", "DayofMonth", "DayOfWeek", "FlightDate", "UniqueCarrier", "AirlineID",
        "Carrier", "TailNum", "FlightNum", "OriginAirportID", "OriginAirportSeqID", "OriginCityMarketID",
        "Origin", "OriginCityName", "OriginState", "OriginStateFips", "OriginStateName", "OriginWac",
        "DestAirportID", "DestAirportSeqID", "DestCityMarketID", "Dest", "DestCityName", "DestState",
        "DestStateFips", "DestStateName", "DestWac", "CRSDepTime", "DepTime", "DepDelay", "DepDelayMinutes",
        "DepDel15", "DepartureDelayGroups", "DepTimeBlk", "TaxiOut", "WheelsOff", "WheelsOn", "TaxiIn",
        "CRSArrTime", "ArrTime", "ArrDelay", "ArrDelayMinutes", "ArrDel15", "ArrivalDelayGroups", "ArrTimeBlk",
        "Cancelled", "CancellationCode", "Diverted",
    ];

    private static readonly WeightedPicker<Airport> Airports = new(Airport.UnitedStates, a => a.Weight);

    private static readonly WeightedPicker<Carrier> Carriers = new(
        [
            new("WN", "19393", "WN", 25),
            new("DL", "19790", "DL", 21),
            new("AA", "19805", "AA", 20),
            new("UA", "19977", "UA", 16),
            new("B6", "20409", "JB", 6),
            new("AS", "19930", "AS", 5),
        ],
        c => c.Weight);

    // A carrier problem, weather, the national air system, security: weather cancels most in January.
    private static readonly WeightedPicker<(string Code, int Weight)> CancellationCodes =
        new([("A", 28), ("B", 45), ("C", 26), ("D", 1)], c => c.Weight);

    private static readonly string[] ClockTimes = CreateClockTimes();
    private static readonly string[] HourBlocks = CreateHourBlocks();
    private static readonly string YearText = Year.ToString(CultureInfo.InvariantCulture);
    private static readonly string MonthText = Month.ToString(CultureInfo.InvariantCulture);
    private static readonly string QuarterText = ((Month + 2) / 3).ToString(CultureInfo.InvariantCulture);

    private readonly Random _random = random;

    public string Description => Summary;

    public IReadOnlyList<string> FieldNames => Columns;

    public bool TryFill(long sequence, Span<KeyValuePair<string, object?>> fields)
    {
        var date = new DateOnly(Year, Month, _random.Next(1, DateTime.DaysInMonth(Year, Month) + 1));
        var carrier = Carriers.Pick(_random);
        var origin = Airports.Pick(_random);
        var dest = PickDestination(origin);

        // Scheduled times in minutes after midnight of the flight date, in 5-minute slots from 05:00.
        var scheduledDeparture = _random.Next(5 * 12, 24 * 12) * 5;
        var scheduledArrival = scheduledDeparture + (_random.Next(11, 67) * 5);

        var outcome = _random.NextDouble();
        var cancelled = outcome < CancelledShare;
        var diverted = !cancelled && outcome < CancelledShare + DivertedShare;

        // Null propagates: a cancelled flight has no actual times, a diverted one none at its destination.
        int? departureDelay = cancelled ? null : DrawDelay();
        int? taxiOut = cancelled ? null : _random.Next(8, 31);
        int? departure = scheduledDeparture + departureDelay;
        int? wheelsOff = departure + taxiOut;
        int? airTime = cancelled || diverted
            ? null
            : Math.Max(25, scheduledArrival - scheduledDeparture - 22 + _random.Next(-12, 13));
        int? wheelsOn = wheelsOff + airTime;
        int? taxiIn = airTime is null ? null : _random.Next(3, 16);
        int? arrival = wheelsOn + taxiIn;
        int? arrivalDelay = arrival - scheduledArrival;

        var row = new FieldWriter(fields);
        row.Add("Year", YearText);
        row.Add("Quarter", QuarterText);
        row.Add("Month", MonthText);
        row.Add("DayofMonth", date.Day.ToString(CultureInfo.InvariantCulture));
        row.Add("DayOfWeek", IsoDayOfWeek(date).ToString(CultureInfo.InvariantCulture));
        row.Add("FlightDate", date.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture));
        row.Add("UniqueCarrier", carrier.Code);
        row.Add("AirlineID", carrier.AirlineId);
        row.Add("Carrier", carrier.Code);
        row.Add("TailNum", string.Create(CultureInfo.InvariantCulture, $"N{_random.Next(100, 1000)}{carrier.TailSuffix}"));
        row.Add("FlightNum", _random.Next(1, 7000).ToString(CultureInfo.InvariantCulture));
        row.Add("OriginAirportID", origin.AirportId);
        row.Add("OriginAirportSeqID", origin.AirportSeqId);
        row.Add("OriginCityMarketID", origin.CityMarketId);
        row.Add("Origin", origin.Code);
        row.Add("OriginCityName", origin.CityName);
        row.Add("OriginState", origin.State.Code);
        row.Add("OriginStateFips", origin.State.Fips);
        row.Add("OriginStateName", origin.State.Name);
        row.Add("OriginWac", origin.State.Wac);
        row.Add("DestAirportID", dest.AirportId);
        row.Add("DestAirportSeqID", dest.AirportSeqId);
        row.Add("DestCityMarketID", dest.CityMarketId);
        row.Add("Dest", dest.Code);
        row.Add("DestCityName", dest.CityName);
        row.Add("DestState", dest.State.Code);
        row.Add("DestStateFips", dest.State.Fips);
        row.Add("DestStateName", dest.State.Name);
        row.Add("DestWac", dest.State.Wac);
        row.Add("CRSDepTime", Clock(scheduledDeparture));
        row.Add("DepTime", Clock(departure));
        row.Add("DepDelay", Minutes(departureDelay));
        row.Add("DepDelayMinutes", Minutes(Late(departureDelay)));
        row.Add("DepDel15", Over15(departureDelay));
        row.Add("DepartureDelayGroups", DelayGroup(departureDelay));
        row.Add("DepTimeBlk", TimeBlock(scheduledDeparture));
        row.Add("TaxiOut", Minutes(taxiOut));
        row.Add("WheelsOff", Clock(wheelsOff));
        row.Add("WheelsOn", Clock(wheelsOn));
        row.Add("TaxiIn", Minutes(taxiIn));
        row.Add("CRSArrTime", Clock(scheduledArrival));
        row.Add("ArrTime", Clock(arrival));
        row.Add("ArrDelay", Minutes(arrivalDelay));
        row.Add("ArrDelayMinutes", Minutes(Late(arrivalDelay)));
        row.Add("ArrDel15", Over15(arrivalDelay));
        row.Add("ArrivalDelayGroups", DelayGroup(arrivalDelay));
        row.Add("ArrTimeBlk", TimeBlock(scheduledArrival));
        row.Add("Cancelled", Flag(cancelled));
        row.Add("CancellationCode", cancelled ? CancellationCodes.Pick(_random).Code : string.Empty);
        row.Add("Diverted", Flag(diverted));
        return true;
    }

    public void Dispose()
    {
    }

    private Airport PickDestination(Airport origin)
    {
        Airport dest;
        do
        {
            dest = Airports.Pick(_random);
        }
        while (ReferenceEquals(dest, origin));

        return dest;
    }

    /// <summary>Most flights leave early or on time; a long tail is hours late (about a quarter of
    /// departures are 15+ minutes late, as in the BTS data).</summary>
    private int DrawDelay() => _random.NextDouble() switch
    {
        < 0.62 => _random.Next(-12, 1),
        < 0.86 => _random.Next(1, 31),
        < 0.97 => _random.Next(31, 121),
        _ => _random.Next(121, 400),
    };

    /// <summary>BTS numbers days Monday = 1 … Sunday = 7.</summary>
    private static int IsoDayOfWeek(DateOnly date) => date.DayOfWeek == DayOfWeek.Sunday ? 7 : (int)date.DayOfWeek;

    private static string Clock(int? minutes) =>
        minutes is int m ? ClockTimes[((m % MinutesPerDay) + MinutesPerDay) % MinutesPerDay] : string.Empty;

    private static string TimeBlock(int minutes) => HourBlocks[minutes % MinutesPerDay / 60];

    private static int? Late(int? delay) => delay is int d ? Math.Max(d, 0) : null;

    private static string Minutes(int? value) =>
        value is int v ? v.ToString("0.00", CultureInfo.InvariantCulture) : string.Empty;

    private static string Over15(int? delay) => delay is int d ? Flag(d >= 15) : string.Empty;

    private static string Flag(bool value) => value ? "1.00" : "0.00";

    /// <summary>15-minute groups: -2 for more than 15 minutes early, -1 for early, then 0, 1, … capped at 12 (3 hours or more).</summary>
    private static string DelayGroup(int? delay) => delay switch
    {
        null => string.Empty,
        < -15 => "-2",
        < 0 => "-1",
        int d => Math.Min(d / 15, 12).ToString(CultureInfo.InvariantCulture),
    };

    /// <summary>"hhmm" for each minute of the day; midnight is "2400", as BTS writes it.</summary>
    private static string[] CreateClockTimes()
    {
        var times = new string[MinutesPerDay];
        for (var m = 0; m < MinutesPerDay; m++)
        {
            var clock = m == 0 ? 2400 : (m / 60 * 100) + (m % 60);
            times[m] = clock.ToString("0000", CultureInfo.InvariantCulture);
        }

        return times;
    }

    /// <summary>BTS departure/arrival blocks: one for 00:01–05:59, then one per hour.</summary>
    private static string[] CreateHourBlocks()
    {
        var blocks = new string[24];
        for (var hour = 0; hour < 24; hour++)
        {
            blocks[hour] = hour < 6
                ? "0001-0559"
                : string.Create(CultureInfo.InvariantCulture, $"{hour:00}00-{hour:00}59");
        }

        return blocks;
    }

    private sealed record Carrier(string Code, string AirlineId, string TailSuffix, int Weight);
}

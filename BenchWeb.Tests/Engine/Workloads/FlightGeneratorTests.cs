using System.Globalization;
using BenchEngine.Workloads;
using BenchWeb.Tests.Support;

namespace BenchWeb.Tests.Engine.Workloads;

[UnitTest]
public sealed class FlightGeneratorTests
{
    private static readonly string[] BtsColumns =
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

    private static readonly string[] EmptyWhenCancelled =
    [
        "DepTime", "DepDelay", "DepDelayMinutes", "DepDel15", "DepartureDelayGroups", "TaxiOut", "WheelsOff",
        "WheelsOn", "TaxiIn", "ArrTime", "ArrDelay", "ArrDelayMinutes", "ArrDel15", "ArrivalDelayGroups",
    ];

    private static readonly Lazy<List<Document>> Flights =
        new(() => new WorkloadOptions { Shape = DocumentShape.Flight, Seed = 42 }.Generate(10_000));

    [Fact]
    public void Fields_AreTheFirst50BtsColumnsAsStrings()
    {
        Assert.All(Flights.Value.Take(100), d =>
        {
            Assert.Equal(BtsColumns, d.Fields.Select(f => f.Key));
            Assert.All(d.Fields, f => Assert.IsType<string>(f.Value));
        });
    }

    [Fact]
    public void PartitionKey_IsTheOriginAirport_ByDefault()
    {
        Assert.All(Flights.Value, d => Assert.Equal(d.Text("Origin"), d.PartitionKey));
    }

    [Fact]
    public void Dest_DiffersFromOrigin()
    {
        Assert.All(Flights.Value, d => Assert.NotEqual(d.Text("Origin"), d.Text("Dest")));
    }

    [Theory]
    [InlineData("Origin")]
    [InlineData("Dest")]
    public void AirportColumns_AgreeWithTheAirportCode(string side)
    {
        var byAirport = Flights.Value.GroupBy(d => d.Text(side));

        Assert.All(byAirport, group =>
        {
            var first = group.First();
            string[] columns = ["AirportID", "AirportSeqID", "CityMarketID", "CityName", "State", "StateFips", "StateName", "Wac"];
            Assert.All(group, d => Assert.All(columns, c => Assert.Equal(first.Text(side + c), d.Text(side + c))));
            Assert.EndsWith(", " + first.Text(side + "State"), first.Text(side + "CityName"), StringComparison.Ordinal);
            Assert.StartsWith(first.Text(side + "AirportID"), first.Text(side + "AirportSeqID"), StringComparison.Ordinal);
        });
    }

    [Theory]
    [InlineData("DFW", "11298", "Dallas/Fort Worth, TX", "TX", "48", "Texas", "74")]
    [InlineData("ATL", "10397", "Atlanta, GA", "GA", "13", "Georgia", "34")]
    [InlineData("ORD", "13930", "Chicago, IL", "IL", "17", "Illinois", "41")]
    [InlineData("MEM", "13244", "Memphis, TN", "TN", "47", "Tennessee", "54")]
    public void OriginColumns_MatchTheBtsValues_ForKnownAirports(
        string code, string airportId, string city, string state, string fips, string stateName, string wac)
    {
        var flight = Flights.Value.First(d => d.Text("Origin") == code);

        Assert.Equal(airportId, flight.Text("OriginAirportID"));
        Assert.Equal(city, flight.Text("OriginCityName"));
        Assert.Equal(state, flight.Text("OriginState"));
        Assert.Equal(fips, flight.Text("OriginStateFips"));
        Assert.Equal(stateName, flight.Text("OriginStateName"));
        Assert.Equal(wac, flight.Text("OriginWac"));
    }

    [Fact]
    public void Origin_FavoursHubs_OverSmallAirports()
    {
        var counts = Flights.Value.CountBy(d => d.Text("Origin")).ToDictionary();

        var quietestHub = new[] { "ATL", "ORD", "DFW" }.Min(code => counts[code]);
        var busiestSmall = new[] { "BOI", "BTV", "ABQ", "ELP", "BHM" }.Max(code => counts.GetValueOrDefault(code));
        Assert.True(quietestHub > 5 * busiestSmall, $"hub {quietestHub} vs small airport {busiestSmall}");
        Assert.Equal("ATL", counts.MaxBy(c => c.Value).Key);
    }

    [Fact]
    public void Carrier_HasItsRealAirlineId()
    {
        var airlineIds = new Dictionary<string, string>
        {
            ["AA"] = "19805", ["DL"] = "19790", ["UA"] = "19977", ["WN"] = "19393", ["B6"] = "20409", ["AS"] = "19930",
        };

        Assert.All(Flights.Value, d =>
        {
            Assert.Equal(d.Text("UniqueCarrier"), d.Text("Carrier"));
            Assert.Equal(airlineIds[d.Text("Carrier")], d.Text("AirlineID"));
        });
    }

    [Fact]
    public void DateColumns_DescribeOneDayOfJanuary2015()
    {
        Assert.All(Flights.Value, d =>
        {
            var date = DateOnly.ParseExact(d.Text("FlightDate"), "yyyy-MM-dd", CultureInfo.InvariantCulture);
            Assert.Equal(new DateOnly(2015, 1, int.Parse(d.Text("DayofMonth"), CultureInfo.InvariantCulture)), date);
            Assert.Equal("2015", d.Text("Year"));
            Assert.Equal("1", d.Text("Month"));
            Assert.Equal("1", d.Text("Quarter"));
            var isoDay = date.DayOfWeek == DayOfWeek.Sunday ? 7 : (int)date.DayOfWeek;
            Assert.Equal(isoDay.ToString(CultureInfo.InvariantCulture), d.Text("DayOfWeek"));
        });
        Assert.Contains(Flights.Value, d => d.Text("FlightDate") == "2015-01-01" && d.Text("DayOfWeek") == "4");
    }

    [Fact]
    public void CancelledShare_IsAbout2Percent()
    {
        var cancelled = Flights.Value.Count(d => d.Text("Cancelled") == "1.00");

        Assert.InRange(cancelled / (double)Flights.Value.Count, 0.014, 0.026);
    }

    [Fact]
    public void CancelledFlights_HaveACodeAndEmptyActualTimes()
    {
        var cancelled = Flights.Value.Where(d => d.Text("Cancelled") == "1.00").ToList();

        Assert.NotEmpty(cancelled);
        Assert.All(cancelled, d =>
        {
            Assert.Contains(d.Text("CancellationCode"), new[] { "A", "B", "C", "D" });
            Assert.All(EmptyWhenCancelled, c => Assert.Equal(string.Empty, d.Text(c)));
            Assert.Matches("^[0-9]{4}$", d.Text("CRSDepTime"));
            Assert.Matches("^[0-9]{4}$", d.Text("CRSArrTime"));
            Assert.Equal("0.00", d.Text("Diverted"));
        });
    }

    [Fact]
    public void FlownFlights_HaveTimesAndDelaysThatAddUp()
    {
        var flown = Flights.Value.Where(d => d.Text("Cancelled") == "0.00" && d.Text("Diverted") == "0.00").ToList();

        Assert.All(flown, d =>
        {
            Assert.Equal(string.Empty, d.Text("CancellationCode"));
            var delay = Minutes(d, "DepDelay");
            Assert.Equal(0, Mod(Clock(d, "DepTime") - Clock(d, "CRSDepTime") - delay));
            Assert.Equal(0, Mod(Clock(d, "WheelsOff") - Clock(d, "DepTime") - Minutes(d, "TaxiOut")));
            Assert.Equal(0, Mod(Clock(d, "ArrTime") - Clock(d, "WheelsOn") - Minutes(d, "TaxiIn")));
            Assert.Equal(0, Mod(Clock(d, "ArrTime") - Clock(d, "CRSArrTime") - Minutes(d, "ArrDelay")));
            Assert.Equal(Math.Max(delay, 0), Minutes(d, "DepDelayMinutes"));
            Assert.Equal(delay >= 15 ? "1.00" : "0.00", d.Text("DepDel15"));
            Assert.Equal(Block(d.Text("CRSDepTime")), d.Text("DepTimeBlk"));
            Assert.Equal(Block(d.Text("CRSArrTime")), d.Text("ArrTimeBlk"));
        });
    }

    [Fact]
    public void Documents_AreTheSame_ForTheSameSeed()
    {
        var again = new WorkloadOptions { Shape = DocumentShape.Flight, Seed = 42 }.Generate(100);

        Assert.Equal(
            Flights.Value.Take(100).Select(d => string.Join(",", d.Fields.Select(f => f.Value))),
            again.Select(d => string.Join(",", d.Fields.Select(f => f.Value))));
    }

    private static int Clock(Document d, string column)
    {
        var hhmm = int.Parse(d.Text(column), CultureInfo.InvariantCulture);
        return (hhmm / 100 * 60) + (hhmm % 100);
    }

    private static int Minutes(Document d, string column) =>
        (int)decimal.Parse(d.Text(column), CultureInfo.InvariantCulture);

    private static int Mod(int minutes) => ((minutes % 1440) + 1440) % 1440;

    private static string Block(string hhmm)
    {
        var hour = int.Parse(hhmm, CultureInfo.InvariantCulture) / 100 % 24;
        return hour < 6 ? "0001-0559" : $"{hour:00}00-{hour:00}59";
    }
}

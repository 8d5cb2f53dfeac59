package pricing_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
)

var D = catalogtest.D

// fx7 converts at 1 USD = 7 CNY.
type fx7 struct{}

func (fx7) Convert(d decimal.Decimal, from, to string) (decimal.Decimal, error) {
	r := map[string]decimal.Decimal{"USD": D("1"), "CNY": D("7")}
	if _, ok := r[from]; !ok {
		return decimal.Zero, fmt.Errorf("no rate for %s", from)
	}
	if _, ok := r[to]; !ok {
		return decimal.Zero, fmt.Errorf("no rate for %s", to)
	}
	return d.Mul(r[to]).Div(r[from]), nil
}

// fixture is the catalogtest catalog plus ancillary prices, a support plan
// and on-premises figures (test values, not catalog data).
func fixture(t *testing.T, extra ...*catalog.Offer) (*catalog.Catalog, *pricing.Engine) {
	t.Helper()
	d := catalogtest.Data()
	src := catalogtest.Src()
	d.Offers = append(d.Offers, extra...)
	d.Ancillary = []*catalog.AncillaryPrice{
		{Provider: "acme", Region: "*", Item: catalog.ItemEgressInternet, TierStart: D("0"), TierEnd: D("100"), Unit: "GB", Price: catalog.Money{Amount: D("0"), Currency: "USD"}, Source: src},
		{Provider: "acme", Region: "*", Item: catalog.ItemEgressInternet, TierStart: D("100"), TierEnd: D("10240"), Unit: "GB", Price: catalog.Money{Amount: D("0.09"), Currency: "USD"}, Source: src},
		{Provider: "acme", Region: "*", Item: catalog.ItemEgressInternet, TierStart: D("10240"), Unit: "GB", Price: catalog.Money{Amount: D("0.085"), Currency: "USD"}, Source: src},
		{Provider: "acme", Region: "*", Item: catalog.ItemBlockStorage, Unit: "GB-month", Price: catalog.Money{Amount: D("0.08"), Currency: "USD"}, Source: src},
		{Provider: "acme", Region: "eu-west", Item: catalog.ItemBlockStorage, Unit: "GB-month", Price: catalog.Money{Amount: D("0.10"), Currency: "USD"}, Source: src},
		{Provider: "acme", Region: "*", Item: catalog.ItemLoadBalancer, Unit: "hour", Price: catalog.Money{Amount: D("0.0225"), Currency: "USD"}, Source: src},
		{Provider: "panda", Region: "*", Item: catalog.ItemEgressInternet, Unit: "GB", Price: catalog.Money{Amount: D("0.8"), Currency: "CNY"}, Source: src},
	}
	d.Support = []*catalog.SupportTier{
		{Provider: "acme", Plan: "business", TierStart: D("0"), TierEnd: D("10000"), Percent: D("10"), MinimumMonthly: D("100"), Currency: "USD", Source: src},
		{Provider: "acme", Plan: "business", TierStart: D("10000"), TierEnd: D("80000"), Percent: D("7"), MinimumMonthly: D("100"), Currency: "USD", Source: src},
		{Provider: "acme", Plan: "business", TierStart: D("80000"), Percent: D("5"), MinimumMonthly: D("100"), Currency: "USD", Source: src},
	}
	d.OnPrem = []*catalog.OnPremFigure{
		{Item: catalog.OnPremServerPrice, GPU: "A100-SXM4-80GB", Value: D("282624"), Currency: "USD", Source: src},
		{Item: catalog.OnPremServerPowerKW, GPU: "A100-SXM4-80GB", Value: D("10.2"), Source: src},
		{Item: catalog.OnPremPUE, Value: D("1"), Source: src},
		{Item: catalog.OnPremElectricity, Value: D("0.0862"), Currency: "USD", Source: src},
		{Item: catalog.OnPremColocation, Value: D("196.25"), Currency: "USD", Source: src},
		{Item: catalog.OnPremNetworkShare, Value: D("0"), Source: src},
		{Item: catalog.OnPremMaintenanceShare, Value: D("0"), Source: src},
		{Item: catalog.OnPremResidualShare, Value: D("0"), Source: src},
		{Item: catalog.OnPremDepreciationYrs, Value: D("3"), Source: src},
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return c, &pricing.Engine{Prices: c, FX: fx7{}}
}

func offer(t *testing.T, c *catalog.Catalog, id string) *catalog.Offer {
	t.Helper()
	o, ok := c.Offer(id)
	if !ok {
		t.Fatalf("no offer %s", id)
	}
	return o
}

func usage(mod func(u *pricing.Usage)) pricing.Usage {
	u := pricing.DefaultUsage()
	if mod != nil {
		mod(&u)
	}
	return u
}

func eq(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Round(6).Equal(D(want)) {
		t.Errorf("%s = %s, want %s", what, got.Round(6), want)
	}
}

// sumOfComponents checks the invariant that a total is the sum of its parts.
func sumOfComponents(t *testing.T, b *pricing.Breakdown) {
	t.Helper()
	sum := decimal.Zero
	for _, c := range b.Components {
		sum = sum.Add(c.Total())
	}
	cash := decimal.Zero
	for _, m := range b.CashFlow() {
		cash = cash.Add(m)
	}
	if !sum.Equal(b.Total()) || !cash.Add(b.After()).Equal(b.Total()) {
		t.Errorf("total %s, components %s, cash %s + after %s", b.Total(), sum, cash, b.After())
	}
}

func TestOnDemandPartTime(t *testing.T) {
	c, e := fixture(t)
	// 2 instances × 8 h/day × 22 days = 176 h each a month at 20 USD/h:
	// 20 × 176 × 2 = 7,040 a month; 3 months = 21,120.
	b, err := e.Cost(offer(t, c, "acme/big8/us-east/on-demand"), usage(func(u *pricing.Usage) {
		u.Instances, u.HoursPerDay, u.DaysPerMonth, u.Months = 2, D("8"), D("22"), 3
	}))
	if err != nil {
		t.Fatal(err)
	}
	sumOfComponents(t, b)
	eq(t, "monthly", b.Components[0].Monthly(), "7040")
	eq(t, "total", b.Total(), "21120")
	// Per used GPU-hour: 21,120 / (16 GPUs × 176 h × 3) = 2.5 (20 USD/h / 8 GPUs).
	eq(t, "per used GPU-hour", b.PerUsedGPUHour(), "2.5")
	// Per calendar GPU-hour: 21,120 / (16 × 730 × 3) = 0.602740 (rounded).
	eq(t, "per GPU-hour", b.PerGPUHour().Round(6), "0.60274")
}

func TestReservedPartialUpfrontShortHorizon(t *testing.T) {
	c, e := fixture(t)
	// reserved-1y-partial-upfront: 6 USD/h + 61,320 upfront. Over a 3-month
	// horizon: hourly part 6 × 730 = 4,380 a month → 13,140 in the horizon and
	// 9 × 4,380 = 39,420 still owed after it; the upfront is paid in month 1.
	// Total 113,880 = the full year at 13 USD/h × 8,760 h.
	b, err := e.Cost(offer(t, c, "acme/big8/us-east/reserved-1y-partial-upfront"), usage(func(u *pricing.Usage) { u.Months = 3 }))
	if err != nil {
		t.Fatal(err)
	}
	sumOfComponents(t, b)
	eq(t, "after horizon", b.After(), "39420")
	eq(t, "total", b.Total(), "113880")
	cf := b.CashFlow()
	eq(t, "month 1 cash", cf[0], "65700") // 61,320 + 4,380
	eq(t, "month 2 cash", cf[1], "4380")
	if !strings.Contains(strings.Join(i18n.English(b.Notes), " "), "runs 9 months past") {
		t.Errorf("notes %v do not say the term outlives the horizon", b.Notes)
	}
}

func TestReservedFromRealAWSPriceFile(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "pricing-samples", "aws", "getproducts-priceitem-m5.large.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skipping: %s not available (%v)", path, err)
	}
	var item struct {
		Terms map[string]map[string]struct {
			TermAttributes  map[string]string `json:"termAttributes"`
			PriceDimensions map[string]struct {
				Unit         string            `json:"unit"`
				PricePerUnit map[string]string `json:"pricePerUnit"`
			} `json:"priceDimensions"`
		} `json:"terms"`
	}
	if err := json.Unmarshal(raw, &item); err != nil {
		t.Fatal(err)
	}
	var upfront, hourly, onDemand decimal.Decimal
	for _, term := range item.Terms["OnDemand"] {
		for _, p := range term.PriceDimensions {
			onDemand = D(p.PricePerUnit["USD"])
		}
	}
	for _, term := range item.Terms["Reserved"] {
		a := term.TermAttributes
		if a["LeaseContractLength"] == "1yr" && a["OfferingClass"] == "standard" && a["PurchaseOption"] == "Partial Upfront" {
			for _, p := range term.PriceDimensions {
				if p.Unit == "Quantity" {
					upfront = D(p.PricePerUnit["USD"])
				} else {
					hourly = D(p.PricePerUnit["USD"])
				}
			}
		}
	}
	// The file: m5.large us-east-1, on-demand 0.096 USD/h; standard 1-year
	// partial upfront = 252 USD upfront + 0.029 USD/h.
	eq(t, "upfront", upfront, "252")
	eq(t, "hourly", hourly, "0.029")
	d := catalogtest.Data()
	d.GPUs = append(d.GPUs, &catalog.GPU{ID: "none", Vendor: "-", Family: "none", MemoryGB: D("1"), Source: catalogtest.Src()})
	d.Instances = append(d.Instances, &catalog.InstanceType{Provider: "acme", Name: "m5.large", GPUID: "none", GPUCount: D("1"),
		GPUMemoryGB: D("1"), Status: catalog.StatusCurrent, Source: catalogtest.Src()})
	// Read from a price file as an import would be, so the source records when it was fetched.
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "aws/amazon-ec2-instance-selector test/static/GetProducts/m5_large.json", AsOf: catalogtest.AsOf, FetchedAt: catalogtest.AsOf}
	d.Offers = append(d.Offers,
		&catalog.Offer{Provider: "acme", InstanceName: "m5.large", RegionCode: "us-east", Billing: catalog.OnDemand, Price: catalog.Price{Hourly: onDemand, Currency: "USD"}, Source: src},
		&catalog.Offer{Provider: "acme", InstanceName: "m5.large", RegionCode: "us-east", Billing: catalog.Reserved1yPart, Price: catalog.Price{Hourly: hourly, Upfront: upfront, Currency: "USD"}, Source: src})
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	e := &pricing.Engine{Prices: c, FX: fx7{}}
	ri := offer(t, c, "acme/m5.large/us-east/reserved-1y-partial-upfront")
	// Effective rate: 252 / 8,760 + 0.029 = 0.057767 USD/h; a year costs
	// 252 + 0.029 × 8,760 = 506.04 USD.
	eq(t, "effective hourly", ri.EffectiveHourly().Round(6), "0.057767")
	b, err := e.Cost(ri, usage(func(u *pricing.Usage) { u.Months = 12 }))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "one year", b.Total(), "506.04")
	// Break-even against on-demand 0.096: 0.0577671 / 0.096 = 60.17 %.
	be, ok, err := e.UtilizationBreakEven(ri)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	eq(t, "break-even utilisation", be.Value.Round(4), "0.6017")
}

func TestSubscriptionMonthVsOnDemandHours(t *testing.T) {
	c, e := fixture(t)
	// panda gpu.8x80: 包月 73,000 CNY vs on-demand 146 CNY/h × 730 h = 106,580 CNY.
	sub, err := e.Cost(offer(t, c, "panda/gpu.8x80/cn-north/subscription-1m"), usage(nil))
	if err != nil {
		t.Fatal(err)
	}
	od, err := e.Cost(offer(t, c, "panda/gpu.8x80/cn-north/on-demand"), usage(nil))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "subscription month", sub.Total(), "73000")
	eq(t, "730 on-demand hours", od.Total(), "106580")
	be, ok, _ := e.UtilizationBreakEven(offer(t, c, "panda/gpu.8x80/cn-north/subscription-1m"))
	// 73,000 / 730 = 100 CNY/h; 100 / 146 = 68.49 %.
	if !ok {
		t.Fatal("no break-even")
	}
	eq(t, "break-even", be.Value.Round(4), "0.6849")
	if !strings.Contains(be.Text, "above 68.5% utilisation") {
		t.Errorf("text %q", be.Text)
	}
}

func TestBelowBreakEvenCommitmentCostsMore(t *testing.T) {
	c, e := fixture(t)
	half := func(u *pricing.Usage) { u.Utilization, u.Months = D("0.5"), 12 }
	ri, _ := e.Cost(offer(t, c, "acme/big8/us-east/reserved-1y-partial-upfront"), usage(half))
	od, _ := e.Cost(offer(t, c, "acme/big8/us-east/on-demand"), usage(half))
	// Reserved: 13 × 8,760 = 113,880 whatever the use. On-demand at 50 %:
	// 20 × 365 × 12 = 87,600. Break-even is 13/20 = 65 %, so at 50 % on-demand wins.
	eq(t, "reserved", ri.Total(), "113880")
	eq(t, "on-demand", od.Total(), "87600")
	// Per used GPU-hour the reservation costs 113,880 / (8 × 365 × 12) = 3.25 vs 2.5.
	eq(t, "reserved per used GPU-hour", ri.PerUsedGPUHour(), "3.25")
	eq(t, "on-demand per used GPU-hour", od.PerUsedGPUHour(), "2.5")
}

func TestTieredPayAsYouGo(t *testing.T) {
	c, e := fixture(t)
	// Tiers by cumulative running hours (hypothetical figures for the test):
	// 0–96 h ×1, 96–360 h ×0.5, 360 h on ×0.34. Month 1 at 730 h:
	// 96 + 264 × 0.5 + 370 × 0.34 = 353.8 weighted hours × 1 USD = 353.8.
	// Month 2: 730 h all in tier 3 → 248.2.
	b, err := e.Cost(offer(t, c, "acme/small1/us-east/on-demand"), usage(func(u *pricing.Usage) {
		u.Months = 2
		u.HourTiers = []pricing.HourTier{{From: D("0"), Multiplier: D("1")}, {From: D("96"), Multiplier: D("0.5")}, {From: D("360"), Multiplier: D("0.34")}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	cf := b.CashFlow()
	eq(t, "month 1", cf[0], "353.8")
	eq(t, "month 2", cf[1], "248.2")
}

func TestVolumeDiscountSupportAndAncillary(t *testing.T) {
	c, e := fixture(t)
	b, err := e.Cost(offer(t, c, "acme/big8/us-east/on-demand"), usage(func(u *pricing.Usage) {
		u.SpendDiscounts = []pricing.SpendDiscount{{Above: D("10000"), Multiplier: D("0.85")}}
		u.EgressGB, u.StorageGB, u.LoadBalancers = D("500"), D("1000"), 2
		u.SupportPlan = "business"
	}))
	if err != nil {
		t.Fatal(err)
	}
	sumOfComponents(t, b)
	got := map[string]decimal.Decimal{}
	for _, comp := range b.Components {
		got[comp.Name] = comp.Total()
	}
	// Compute 20 × 730 = 14,600; 8.5折 on the 4,600 above 10,000 → −690.
	eq(t, "compute", got["Compute (on-demand)"], "14600")
	eq(t, "discount", got["Volume discount"], "-690")
	// Egress 500 GB: first 100 free, 400 × 0.09 = 36.
	eq(t, "egress", got["Internet egress"], "36")
	// Block storage 1,000 GB × 0.08 = 80; 2 LBs × 730 h × 0.0225 = 32.85.
	eq(t, "storage", got["Block storage"], "80")
	eq(t, "load balancers", got["Load balancers"], "32.85")
	// Support on 14,600 − 690 + 36 + 80 + 32.85 = 14,058.85:
	// 10 % of 10,000 + 7 % of 4,058.85 = 1,000 + 284.1195 = 1,284.1195.
	eq(t, "support", got["Support (business)"], "1284.1195")
}

func TestMissingAncillaryPriceIsNotedNotInvented(t *testing.T) {
	c, e := fixture(t)
	b, err := e.Cost(offer(t, c, "panda/gpu.8x80/cn-north/on-demand"), usage(func(u *pricing.Usage) { u.StorageGB = D("100") }))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Components) != 1 || !strings.Contains(strings.Join(i18n.English(b.Notes), " "), "no sourced block-storage price for panda") {
		t.Errorf("components %d, notes %v", len(b.Components), b.Notes)
	}
}

func TestBadUsageNamesTheField(t *testing.T) {
	c, e := fixture(t)
	o := offer(t, c, "acme/big8/us-east/on-demand")
	for field, mod := range map[string]func(u *pricing.Usage){
		"hours_per_day": func(u *pricing.Usage) { u.HoursPerDay = D("-1") },
		"months":        func(u *pricing.Usage) { u.Months = 0 },
		"utilization":   func(u *pricing.Usage) { u.Utilization = D("1.5") },
		"instances":     func(u *pricing.Usage) { u.Instances = 0 },
		"egress_gb":     func(u *pricing.Usage) { u.EgressGB = D("-3") },
		"hour_tiers[1]": func(u *pricing.Usage) {
			u.HourTiers = []pricing.HourTier{{From: D("5"), Multiplier: D("1")}, {From: D("5"), Multiplier: D("0.5")}}
		},
		"spend_discounts[0]": func(u *pricing.Usage) {
			u.SpendDiscounts = []pricing.SpendDiscount{{Above: D("1"), Multiplier: D("1.2")}}
		},
	} {
		_, err := e.Cost(o, usage(mod))
		var fe *pricing.FieldError
		if !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: err = %v", field, err)
		}
	}
	if _, err := e.Cost(o, usage(func(u *pricing.Usage) { u.SupportPlan = "platinum" })); err == nil || !strings.Contains(err.Error(), `no support plan "platinum"`) {
		t.Errorf("unknown support plan: %v", err)
	}
}

func TestOnPremWorkedCheck(t *testing.T) {
	_, e := fixture(t)
	p, err := e.OnPremDefaults("A100-SXM4-80GB", 1)
	if err != nil {
		t.Fatal(err)
	}
	// One 8-GPU server at 282,624 USD (8 × 35,328), 10.2 kW, PUE 1,
	// 0.0862 USD/kWh, colocation 196.25 USD/kW-month, 3-year straight-line
	// to zero, 36 months:
	//   hardware    282,624
	//   power       10.2 × 730 × 0.0862 × 36 = 23,106.4272
	//   colocation  10.2 × 196.25 × 36       = 72,063
	//   total       377,793.4272 → per GPU-hour 377,793.4272 / (8 × 26,280) = 1.797 USD
	b, err := e.OnPremCost(p, 36)
	if err != nil {
		t.Fatal(err)
	}
	sumOfComponents(t, b)
	eq(t, "total", b.Total(), "377793.4272")
	eq(t, "per GPU-hour", b.PerGPUHour().Round(3), "1.797")
	// After 18 months the book value is half the hardware: 141,312.
	eq(t, "book value", pricing.BookValue(D("282624"), D("0"), D("3"), 18), "141312")
}

func TestCompareCNYPlanInUSDAndBreakEvens(t *testing.T) {
	c, e := fixture(t)
	p, _ := e.OnPremDefaults("A100-SXM4-80GB", 1)
	plans := []pricing.Plan{
		{Name: "panda on-demand", Parts: []pricing.Part{{Offer: offer(t, c, "panda/gpu.8x80/cn-north/on-demand"), Usage: pricing.DefaultUsage()}}},
		{Name: "panda 包月", Parts: []pricing.Part{{Offer: offer(t, c, "panda/gpu.8x80/cn-north/subscription-1m"), Usage: pricing.DefaultUsage()}}},
		{Name: "buy", OnPrem: &p},
	}
	res, err := e.Compare(plans, 12, "USD")
	if err != nil {
		t.Fatal(err)
	}
	// 包月 73,000 CNY × 12 = 876,000 CNY = 125,142.857143 USD at 7 CNY/USD.
	eq(t, "包月 in USD", res.Plans[1].Total, "125142.857143")
	// On-demand 146 × 730 × 12 = 1,278,960 CNY = 182,708.571429 USD.
	eq(t, "on-demand in USD", res.Plans[0].Total, "182708.571429")
	if res.Cheapest != "panda 包月" {
		// buy: 282,624 + (10.2×730×0.0862 + 10.2×196.25) × 12 − book value 188,416 = 142,223.93
		t.Errorf("cheapest = %s", res.Cheapest)
	}
	var kinds []string
	for _, be := range res.BreakEven {
		kinds = append(kinds, be.Kind+":"+be.Plan+">"+be.Versus)
		if be.Kind == "buy-vs-rent" && be.Versus == "panda 包月" && (!be.Found || be.Value.IntPart() < 13) {
			t.Errorf("buy vs 包月: %+v", be)
		}
	}
	if len(res.BreakEven) != 3 {
		t.Errorf("break-evens: %v", kinds)
	}
}

// TestSeedArticleTCO reproduces the 3-year TCO script of the seed article
// (seeds/002) with explicit semantics:
//
//	aws_cost    = 32.77 * 24 * 365 * 3          # on-demand, 3 years
//	aws_savings = aws_cost * 0.65               # "3年预付降价65%"
//	aliyun_cost = 28.50 * 24 * 365 * 3 * 0.7    # "按需价7折（假设）"
//
// "降价65%" means 65 % off, i.e. paying 35 % (multiplier 0.35); the script
// multiplies by 0.65, which is paying 65 % (35 % off). The two readings
// differ by 258,358.68 USD.
func TestSeedArticleTCO(t *testing.T) {
	src := catalogtest.Src()
	c, e := fixture(t)
	// Offers at the article's hourly prices.
	aws := &catalog.Offer{Provider: "acme", InstanceName: "big8", RegionCode: "us-east", Billing: catalog.OnDemand,
		Price: catalog.Price{Hourly: D("32.77"), Currency: "USD"}, Source: src, Instance: offer(t, c, "acme/big8/us-east/on-demand").Instance,
		Region: offer(t, c, "acme/big8/us-east/on-demand").Region}
	ali := &catalog.Offer{Provider: "panda", InstanceName: "gpu.8x80", RegionCode: "cn-north", Billing: catalog.OnDemand,
		Price: catalog.Price{Hourly: D("28.50"), Currency: "USD"}, Source: src, Instance: offer(t, c, "panda/gpu.8x80/cn-north/on-demand").Instance,
		Region: offer(t, c, "panda/gpu.8x80/cn-north/on-demand").Region}
	three := func(mult string) pricing.Usage {
		return usage(func(u *pricing.Usage) {
			u.Months = 36
			if mult != "" {
				u.SpendDiscounts = []pricing.SpendDiscount{{Above: D("0"), Multiplier: D(mult)}}
			}
		})
	}
	cost := func(o *catalog.Offer, mult string) decimal.Decimal {
		b, err := e.Cost(o, three(mult))
		if err != nil {
			t.Fatal(err)
		}
		return b.Total()
	}
	eq(t, "aws on-demand 3 years (32.77 × 26,280)", cost(aws, ""), "861195.6")
	eq(t, "as scripted: × 0.65 (pay 65 %)", cost(aws, "0.65"), "559777.14")
	eq(t, "as written: 65 % off (pay 35 %)", cost(aws, "0.35"), "301418.46")
	eq(t, "aliyun 7折 (28.50 × 26,280 × 0.7)", cost(ali, "0.7"), "524286")
}

// TestCompareScalesSmallPlansToTheServersGPUs is the TCO page's wrong winner:
// a 1-GPU instance against buying an 8-GPU server. Totals of a 1-GPU and an
// 8-GPU fleet do not compare, so the 1-GPU plan is priced as 8 instances;
// the cheapest is then the lowest total, and buy-vs-rent compares the same
// fleets (English text and a message key for other languages).
func TestCompareScalesSmallPlansToTheServersGPUs(t *testing.T) {
	c, e := fixture(t)
	p, _ := e.OnPremDefaults("A100-SXM4-80GB", 1)
	small := offer(t, c, "acme/small1/us-east/on-demand")
	one, err := e.Cost(small, usage(func(u *pricing.Usage) { u.Months = 36 }))
	if err != nil {
		t.Fatal(err)
	}
	plans := []pricing.Plan{
		{Name: "one small", Parts: []pricing.Part{{Offer: small, Usage: pricing.DefaultUsage()}}},
		{Name: "buy", OnPrem: &p},
	}
	res, err := e.Compare(plans, 36, "USD")
	if err != nil {
		t.Fatal(err)
	}
	if res.RankedBy != "total" || !res.GPUs.Equal(D("8")) {
		t.Fatalf("ranked by %s at %s GPUs, want total at 8", res.RankedBy, res.GPUs)
	}
	r := res.Plans[0]
	if r.Scale != 8 || !r.GPUs.Equal(D("8")) {
		t.Fatalf("1-GPU plan: scale %d, %s GPUs; want 8 and 8", r.Scale, r.GPUs)
	}
	eq(t, "8 instances cost 8 × one", r.Total.Round(6), one.Total().Mul(D("8")).Round(6).String())
	lowest := res.Plans[0]
	for _, q := range res.Plans {
		if q.Total.LessThan(lowest.Total) {
			lowest = q
		}
	}
	if res.Cheapest != lowest.Name {
		t.Errorf("cheapest %q, but the lowest total is %q", res.Cheapest, lowest.Name)
	}
	for _, be := range res.BreakEven {
		if be.Kind == "buy-vs-rent" && (be.Key == "" || be.Text == "") {
			t.Errorf("break-even without a message: %+v", be)
		}
	}
}

package curated_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// osHeader is an offer file with the optional os column.
const osHeader = "provider,instance_type,region,billing,hourly,upfront,monthly,currency,source_kind,source_ref,as_of,notes,os\n"

// TestOverlayWindowsOffers: a user's Windows rates (test data, not
// published prices) load beside the Linux ones under their own IDs, and
// every Linux view stays as it was.
func TestOverlayWindowsOffers(t *testing.T) {
	base := load(t)
	ds, err := curated.Load(curated.Embedded(), overlay(map[string]string{
		"offers/mine.csv": osHeader +
			"aws,g4dn.xlarge,us-east-1,on-demand,0.71,,,USD,user,test data: an illustrative Windows rate,2026-11-01,,windows\n" +
			"aws,g4dn.xlarge,us-east-1,spot,0.60,,,USD,user,test data: an illustrative Windows spot rate,2026-11-01,,Windows\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	c := ds.Catalog
	if len(c.Offers()) != len(base.Offers()) {
		t.Errorf("Linux offers %d, want %d: a Windows row must not join them", len(c.Offers()), len(base.Offers()))
	}
	win := c.OffersOS(catalog.OSWindows)
	if len(win) != 2 || win[0].ID() != "aws/g4dn.xlarge/us-east-1/on-demand/windows" || win[1].ID() != "aws/g4dn.xlarge/us-east-1/spot/windows" {
		t.Fatalf("Windows offers %v", ids(win))
	}
	linux, ok := c.Offer("aws/g4dn.xlarge/us-east-1/on-demand")
	if !ok || !linux.Linux() {
		t.Fatal("the Linux on-demand offer is gone")
	}
	if w, ok := c.WindowsOffer(linux); !ok || w != win[0] {
		t.Errorf("WindowsOffer(%s) = %v", linux.ID(), w)
	}
	// The Windows spot rate (0.60) is above the Linux on-demand rate
	// (0.526) and valid: each operating system is compared with its own.
	rows, err := c.QueryOffers(catalog.OfferQuery{OS: catalog.OSWindows, InstanceID: "aws/g4dn.xlarge"})
	if err != nil || len(rows) != 2 {
		t.Fatalf("query Windows: %d rows, %v", len(rows), err)
	}
	rows, _ = c.QueryOffers(catalog.OfferQuery{InstanceID: "aws/g4dn.xlarge"})
	for _, r := range rows {
		if !r.Offer.Linux() {
			t.Errorf("a default query lists %s", r.Offer.ID())
		}
	}
	if _, err := c.QueryOffers(catalog.OfferQuery{OS: "macos"}); err == nil {
		t.Error("an unknown operating system is accepted")
	}
}

func TestWindowsOfferErrors(t *testing.T) {
	for _, tt := range []struct{ name, content, want string }{
		{"bad os", "aws,g4dn.xlarge,us-east-1,on-demand,0.71,,,USD,user,r,2026-11-01,,macos\n",
			"offers/mine.csv:2: field os: \"macos\" is not an operating system"},
		{"windows spot without windows on-demand", "aws,g4dn.xlarge,us-east-1,spot,0.3,,,USD,user,r,2026-11-01,,windows\n",
			"offers/mine.csv:2: aws/g4dn.xlarge/us-east-1/spot/windows: field billing: spot offer without an on-demand offer"},
		{"windows spot above windows on-demand", "aws,g4dn.xlarge,us-east-1,on-demand,0.71,,,USD,user,r,2026-11-01,,windows\naws,g4dn.xlarge,us-east-1,spot,0.9,,,USD,user,r,2026-11-01,,windows\n",
			"offers/mine.csv:3: aws/g4dn.xlarge/us-east-1/spot/windows: field price: effective 0.9 USD/h is above the on-demand 0.71 USD/h"},
		{"duplicate windows row", "aws,g4dn.xlarge,us-east-1,on-demand,0.71,,,USD,user,r,2026-11-01,,windows\naws,g4dn.xlarge,us-east-1,on-demand,0.72,,,USD,user,r,2026-11-01,,windows\n",
			"duplicate offer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := curated.Load(curated.Embedded(), overlay(map[string]string{"offers/mine.csv": osHeader + tt.content}))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func ids(offers []*catalog.Offer) []string {
	var out []string
	for _, o := range offers {
		out = append(out, o.ID())
	}
	return out
}

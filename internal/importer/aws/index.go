package aws

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// DefaultPricingURL is the AWS Price List bulk API host.
const DefaultPricingURL = "https://pricing.us-east-1.amazonaws.com"

// DefaultSpotAdvisorURL is the Spot Instance Advisor feed.
const DefaultSpotAdvisorURL = "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json"

// RegionOfferURLs reads the EC2 region index
// (/offers/v1.0/aws/AmazonEC2/current/region_index.json) and returns the
// offer-file URL of each wanted region (all when wanted is empty).
func RegionOfferURLs(ctx context.Context, c *http.Client, base string, wanted []string) (map[string]string, error) {
	if base == "" {
		base = DefaultPricingURL
	}
	base = strings.TrimRight(base, "/")
	resp, err := importer.GetWithRetry(ctx, c, base+"/offers/v1.0/aws/AmazonEC2/current/region_index.json", nil, 3)
	if err != nil {
		return nil, fmt.Errorf("aws region index: %w", err)
	}
	defer resp.Body.Close()
	var idx struct {
		Regions map[string]struct {
			RegionCode        string `json:"regionCode"`
			CurrentVersionURL string `json:"currentVersionUrl"`
		} `json:"regions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&idx); err != nil {
		return nil, &importer.ParseError{Source: "aws region index", Err: err}
	}
	want := map[string]bool{}
	for _, w := range wanted {
		want[w] = true
	}
	out := map[string]string{}
	for code, r := range idx.Regions {
		if len(want) > 0 && !want[code] {
			continue
		}
		u := r.CurrentVersionURL
		if strings.HasPrefix(u, "/") {
			u = base + u
		}
		out[code] = u
	}
	for w := range want {
		if _, ok := out[w]; !ok {
			return nil, fmt.Errorf("aws region index has no region %q", w)
		}
	}
	return out, nil
}

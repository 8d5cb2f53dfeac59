package planfile_test

import (
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
)

// BenchmarkResolveUnknownOffer is the cost of an unknown offer ID on the
// embedded catalog, suggestions included: what the server pays before it
// answers 404 with "did you mean".
func BenchmarkResolveUnknownOffer(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	for _, id := range []string{"aws/p5.48xlarg/us-east-1/on-demand", "xyz/p5.48xlarge/us-east-1/on-demand"} {
		b.Run(id[:3], func(b *testing.B) {
			for b.Loop() {
				if _, err := planfile.ResolveOffer(ds.Catalog, id); err == nil {
					b.Fatal("found")
				}
			}
		})
	}
}

package catalog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// BenchmarkSuggestOffer is an unknown offer ID against 4,000 offer IDs,
// the size of the embedded catalog (the server answers "did you mean"
// with it on every unknown offer).
func BenchmarkSuggestOffer(b *testing.B) {
	var ids []string
	for i := 0; i < 4000; i++ {
		ids = append(ids, fmt.Sprintf("prov%d/inst-%d.%dxlarge/region-%d/on-demand", i%18, i, i%7, i%40))
	}
	for _, name := range []string{"aws/p5.48xlarg/us-east-1/on-demand", "aws/p5.48xlarg" + strings.Repeat("e", 200) + "/us-east-1/on-demand"} {
		b.Run(fmt.Sprint(len(name)), func(b *testing.B) {
			for b.Loop() {
				catalog.Suggest(name, ids, 3)
			}
		})
	}
}

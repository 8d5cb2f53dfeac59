package zhcheck_test

import (
	"reflect"
	"testing"

	"github.com/gpuscout/gpuscout/internal/i18n/zhcheck"
)

func TestEnglishWords(t *testing.T) {
	names := zhcheck.Names{}
	names.Add("SageMaker AI")
	text := "按量付费 p5.48xlarge 价格 USD，来源 https://aws.amazon.com/ec2/pricing/ SageMaker; Spot price spot Price"
	got := zhcheck.EnglishWords(text, map[string]bool{"usd": true}, names)
	want := []string{"Spot", "price", "spot", "Price"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("EnglishWords = %v, want %v", got, want)
	}
	if w := zhcheck.EnglishWords("每块 GPU 720.0 tokens/s（NVSwitch）", zhcheck.Names{"nvswitch": true}); len(w) != 0 {
		t.Errorf("names, acronyms and units flagged: %v", w)
	}
}

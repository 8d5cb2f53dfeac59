package server

import (
	"reflect"
	"strings"
	"testing"
)

func TestEvidencePartsKeepCitationsVerbatim(t *testing.T) {
	got := evidenceParts(`help.aliyun.com/zh/ecs/x（GPU计算型实例规格族gn7i："NVIDIA A10 * n / 24GB * n"；存档副本），转引自 gpuscout 调研数据 instances-reference-cn.csv §3`, true)
	want := []evidencePart{
		{Text: "help.aliyun.com/zh/ecs/x", Ref: true}, {Text: "（"}, {Text: "GPU", Ref: true}, {Text: "计算型实例规格族"}, {Text: "gn7i", Ref: true}, {Text: "："},
		{Text: "NVIDIA A10 * n / 24GB * n", Quote: true}, {Text: "；存档副本），转引自"}, {Text: " gpuscout ", Ref: true},
		{Text: "调研数据"}, {Text: " instances-reference-cn.csv ", Ref: true}, {Text: "§3"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if en := evidenceParts(`a "quote" and a path/x.md`, false); len(en) != 1 || en[0].Ref || en[0].Quote {
		t.Errorf("English evidence is cut: %+v", en)
	}
	var b strings.Builder
	for _, p := range got {
		b.WriteString(p.Text)
	}
	if strings.Contains(b.String(), `"`) {
		t.Errorf("a quotation keeps its marks inside <q>: %q", b.String())
	}
}

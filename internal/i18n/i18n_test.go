package i18n_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

func TestEveryKeyInEveryLanguage(t *testing.T) {
	en, zh := i18n.Keys(i18n.EN), i18n.Keys(i18n.ZH)
	sort.Strings(en)
	sort.Strings(zh)
	if strings.Join(en, ",") != strings.Join(zh, ",") {
		t.Errorf("message keys differ between en and zh:\nen %v\nzh %v", en, zh)
	}
	p := i18n.NewPrinter(i18n.ZH)
	for _, k := range zh {
		if strings.TrimSpace(p.T(k)) == "" {
			t.Errorf("zh message %q is empty", k)
		}
	}
}

func TestPlaceholdersMatch(t *testing.T) {
	for _, k := range i18n.Keys(i18n.EN) {
		en := i18n.NewPrinter(i18n.EN).T(k)
		zh := i18n.NewPrinter(i18n.ZH).T(k)
		if strings.Count(en, "%") != strings.Count(zh, "%") {
			t.Errorf("%s: en %q and zh %q take different arguments", k, en, zh)
		}
	}
}

func TestLanguageFromEnvironment(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want i18n.Lang
	}{
		{map[string]string{}, i18n.EN},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, i18n.ZH},
		{map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}, i18n.EN},
		{map[string]string{"LANG": "C", "LC_MESSAGES": "zh_TW"}, i18n.ZH},
		{map[string]string{"LANG": "de_DE.UTF-8"}, i18n.EN},
	}
	for _, tt := range tests {
		if got := i18n.FromEnv(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("FromEnv(%v) = %s, want %s", tt.env, got, tt.want)
		}
	}
	if _, err := i18n.ParseLang("fr"); err == nil {
		t.Error("ParseLang(fr) succeeded")
	}
}

func TestChineseArgumentOrder(t *testing.T) {
	got := i18n.NewPrinter(i18n.ZH).T("note.shown", 5, 36)
	if got != "共 36 条匹配报价，显示 5 条。" {
		t.Errorf("got %q", got)
	}
}

func TestMsgRendersNestedArgumentsInItsLanguage(t *testing.T) {
	m := i18n.M("perf.as.inter", 42.5, 400.0, i18n.M("perf.as.rdma_rate", "EFA"))
	if got, want := m.String(), "inter-node all-reduce at 42 GB/s (400 Gb/s, EFA at 85% of line rate)"; got != want {
		t.Errorf("English: got %q, want %q", got, want)
	}
	if got, want := i18n.NewPrinter(i18n.ZH).M(m), "节点间全归约 42 GB/s（400 Gb/s，EFA，按线速的 85%）"; got != want {
		t.Errorf("Chinese: got %q, want %q", got, want)
	}
	if got := i18n.NewPrinter(i18n.ZH).Ms(nil); got != nil {
		t.Errorf("Ms(nil) = %v", got)
	}
}

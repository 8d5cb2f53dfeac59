package cli

import (
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// The progress lines of a long import, in both languages: bytes read and
// their rate, then offers stored and theirs.
func TestProgressLines(t *testing.T) {
	for _, tt := range []struct {
		lang         i18n.Lang
		read, stored string
	}{
		{i18n.EN, "skypilot: 90.0 MB read (45.0 MB/s), 1000000 records", "skypilot: 90.0 MB read, 500000 offers stored (250000 offers/s)"},
		{i18n.ZH, "skypilot：已读取 90.0 MB（45.0 MB/s），1000000 条记录", "skypilot：已读取 90.0 MB，已保存 500000 条报价（每秒 250000 条）"},
	} {
		p := i18n.NewPrinter(tt.lang)
		if got := progressRead(p, "skypilot", 90<<20, 1000000, 2*time.Second); got != tt.read {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.read)
		}
		if got := progressStored(p, "skypilot", 90<<20, 500000, 2*time.Second); got != tt.stored {
			t.Errorf("%s: %q, want %q", tt.lang, got, tt.stored)
		}
	}
}

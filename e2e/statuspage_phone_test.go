package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestStatusPageOnAPhone renders the status page 420 px wide, as the on-call
// person's phone would: nothing scrolls sideways, each target is a card whose lines
// say what they are, and the row of module auto says which protocol and port
// answered. GSE_SCREENSHOT=file.png keeps a screenshot (PNG) to look at.
func TestStatusPageOnAPhone(t *testing.T) {
	chrome := chromiumPath(t)
	named := a2sFake(t, "A server with a rather long name, as they often are [EU] #1 | discord.gg/x", 5, 16, 1)
	silent := prototest.Silent(t).String()
	base := startExporter(t).Base
	probe(t, base, "auto", named)
	probe(t, base, "a2s", silent)
	ctx := browser(t, chrome, 420, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#targets"))); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	widths, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[window.innerWidth, document.documentElement.scrollWidth]`))
	if err != nil {
		t.Fatal(err)
	}
	if widths[1] > widths[0] {
		t.Errorf("at %d px wide the page is %d px wide: it scrolls sideways", widths[0], widths[1])
	}
	auto, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#targets tbody tr")).map(r => r.innerText).find(s => s.includes("auto")) || ""`))
	if err != nil {
		t.Fatal(err)
	}
	port := named[strings.LastIndex(named, ":")+1:]
	if !strings.Contains(auto, "a2s on port "+port) {
		t.Errorf("the auto row does not say which protocol and port answered: %q", auto)
	}
	if f := os.Getenv("GSE_SCREENSHOT"); f != "" {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil || os.WriteFile(filepath.Clean(f), shot, 0o644) != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
}

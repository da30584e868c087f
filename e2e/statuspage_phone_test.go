package e2e

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	c := &http.Client{Timeout: 10 * time.Second}
	for _, p := range []struct{ module, target string }{{"auto", named}, {"a2s", silent}} {
		req, _ := http.NewRequest("GET", base+"/probe?module="+p.module+"&target="+p.target, nil)
		req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "2")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(420, 900),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", chrome, err)
	}
	ctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(420, 900), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#targets"))); err != nil {
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

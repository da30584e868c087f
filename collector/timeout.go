package collector

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// minProbeTimeout is the least time a probe is given: less cannot even cross a
// LAN, and a scrape that asks for it gets a 400 rather than a certain failure.
const minProbeTimeout = 10 * time.Millisecond

// probeTimeout is the scrape's timeout (X-Prometheus-Scrape-Timeout-Seconds) minus
// offset, capped by the module's timeout; the module's timeout without the header.
// The offset leaves Prometheus time to receive the answer before it gives up.
func probeTimeoutFor(v string, module, offset time.Duration) (time.Duration, error) {
	if v == "" {
		return module, nil
	}
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs <= 0 {
		return 0, fmt.Errorf("invalid X-Prometheus-Scrape-Timeout-Seconds %q: want a positive number of seconds", v)
	}
	scrape := time.Duration(secs * float64(time.Second))
	t := scrape - offset
	if t <= 0 {
		// An offset as large as the scrape timeout would leave nothing: use half.
		t = scrape / 2
	}
	if module > 0 && module < t {
		t = module
	}
	if t < minProbeTimeout {
		return 0, fmt.Errorf("X-Prometheus-Scrape-Timeout-Seconds %q leaves %s to probe, less than the least of %s", v, t, minProbeTimeout)
	}
	return t, nil
}

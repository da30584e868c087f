package main

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"

	"github.com/prometheus/common/version"
	"github.com/prometheus/exporter-toolkit/web"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
)

// landing builds the landing page for one request: it carries the recent probes,
// so it cannot be rendered once at start-up.
func landing(sc *config.SafeConfig, history *collector.History) http.Handler {
	names := sc.Get().Names()
	for i, n := range names {
		names[i] = html.EscapeString(n)
	}
	page, err := web.NewLandingPage(web.LandingConfig{
		Name:        exporterName,
		Description: "Prometheus exporter for game servers",
		Version:     version.Info(),
		Form: web.LandingForm{
			Action: "/probe",
			Inputs: []web.LandingFormInput{
				{Label: "Target", Type: "text", Name: "target", Placeholder: "host:port", Value: "127.0.0.1:27015"},
				{Label: "Module", Type: "text", Name: "module", Placeholder: "module", Value: "a2s"},
				{Label: "Debug", Type: "checkbox", Name: "debug", Value: "true"},
			},
		},
		Links: []web.LandingLinks{
			{Address: "/metrics", Text: "Metrics", Description: "The exporter's own metrics"},
			{Address: "/modules", Text: "Modules", Description: "Every module: protocol, default port, query port offsets, game"},
			{Address: "/config", Text: "Configuration", Description: "The modules in force, as YAML"},
		},
		ExtraHTML: "<p>Modules (see <a href=\"/modules\">/modules</a>): " + strings.Join(names, ", ") + "</p>" + history.HTML(""),
	})
	if err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		})
	}
	return page
}

// writeModules lists every module in force as a table: the game catalog and the
// protocols, with what a target without a port gets and where the query goes.
func writeModules(w io.Writer, c *config.Config) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tPROTOCOL\tTRANSPORT\tGAME PORT\tQUERY PORT OFFSETS\tDESCRIPTION")
	for _, name := range c.Names() {
		m := c.Modules[name]
		p := m.Proto()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%v\t%s\n", name, m.Protocol, p.Transport, m.DefaultPort(), m.QueryPortOffsets(), m.Description)
	}
	tw.Flush()
}

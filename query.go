package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/alecthomas/kingpin/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
)

// queryCommand is `gameserver_exporter query`: one probe through the same code path
// as /probe, printed for a person (or as JSON): the qstat-like tool operators reach
// for when an alert fires.
type queryCommand struct {
	cmd     *kingpin.CmdClause
	module  *string
	target  *string
	timeout *string
	json    *bool
	players *bool
	rules   *bool
	debug   *bool
	metrics *bool
}

func addQueryCommand(app *kingpin.Application) *queryCommand {
	c := &queryCommand{cmd: app.Command("query", "Probe one game server and print what it reports.")}
	c.module = c.cmd.Flag("module", "Module to probe with.").Short('m').Default("a2s").String()
	c.timeout = c.cmd.Flag("timeout", "Probe timeout in seconds (capped by the module's timeout).").Default("").String()
	c.json = c.cmd.Flag("json", "Print the result as JSON.").Bool()
	c.players = c.cmd.Flag("players", "Also query the player list.").Bool()
	c.rules = c.cmd.Flag("rules", "Also query rules / server variables.").Bool()
	c.debug = c.cmd.Flag("debug", "Print the debug output: log lines, decoded reply, metrics and a hex dump of every packet.").Bool()
	c.metrics = c.cmd.Flag("metrics", "Print the metrics /probe would return.").Bool()
	c.target = c.cmd.Arg("target", "host, host:port or [v6addr]:port").Required().String()
	return c
}

func (c *queryCommand) run(configFile string, stdout, stderr io.Writer) int {
	cfg, err := config.Load(configFile)
	if err != nil {
		fmt.Fprintln(stderr, "loading config:", err)
		return 2
	}
	if m, ok := cfg.Modules[*c.module]; ok && (*c.players || *c.rules) {
		mod := *m
		mod.Players = mod.Players || *c.players
		mod.Rules = mod.Rules || *c.rules
		if err := mod.Compile(m.Proto()); err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		cfg.Modules[*c.module] = &mod
	}
	sc := config.NewSafeConfig(configFile)
	sc.Set(cfg)
	h := &collector.ProbeHandler{
		Config:  sc,
		Logger:  slog.New(slog.DiscardHandler),
		Metrics: collector.NewSelfMetrics(prometheus.NewRegistry()),
		History: collector.NewHistory(1),
	}
	e, err := h.Run(context.Background(), *c.module, *c.target, *c.timeout)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	switch {
	case *c.debug:
		e.WriteDebug(stdout)
	case *c.json:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(e.Report())
	case *c.metrics:
		e.WriteMetrics(stdout)
	default:
		printReport(stdout, e.Report())
	}
	if !e.Success {
		return 1
	}
	return 0
}

func printReport(w io.Writer, r collector.Report) {
	if !r.Success {
		fmt.Fprintf(w, "%s (%s): DOWN after %.3fs: %s: %s\n", r.Target, r.Module, r.Duration, r.Reason, r.Error)
		return
	}
	fmt.Fprintf(w, "%s (%s): up, answered in %.3fs\n", r.Target, r.Module, r.Duration)
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "  %-9s %s\n", k+":", v)
		}
	}
	row("name", r.Name)
	row("map", r.Map)
	row("game", r.Game)
	row("version", r.Version)
	row("state", r.State)
	if r.Players != nil || r.MaxPlayers != nil {
		p := fmt.Sprintf("%s/%s", opt(r.Players), opt(r.MaxPlayers))
		if r.Bots != nil {
			p += fmt.Sprintf(" (+%d bots)", *r.Bots)
		}
		row("players", p)
	}
	if r.Password != nil {
		row("password", fmt.Sprint(*r.Password))
	}
	for _, ph := range r.Phases {
		if ph.Error != "" {
			row("failed", ph.Name+": "+ph.Error)
		}
	}
	for _, p := range r.PlayerList {
		var extra []string
		if p.Score != nil {
			extra = append(extra, fmt.Sprintf("score %d", *p.Score))
		}
		if p.Ping != nil {
			extra = append(extra, fmt.Sprintf("ping %dms", *p.Ping))
		}
		if p.Duration != nil {
			extra = append(extra, fmt.Sprintf("%.0fs", *p.Duration))
		}
		if p.Team != "" {
			extra = append(extra, "team "+p.Team)
		}
		fmt.Fprintf(w, "    %-24q %s\n", p.Name, strings.Join(extra, ", "))
	}
	for _, kv := range r.Rules {
		fmt.Fprintf(w, "    %s = %s\n", kv[0], kv[1])
	}
}

func opt(v *int64) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprint(*v)
}

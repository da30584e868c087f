{{- define "gse.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gse.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "gse.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gse.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "gse.labels" -}}
{{ include "gse.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The exporter's address inside the cluster, for Probe and ScrapeConfig. */}}
{{- define "gse.address" -}}
{{ include "gse.fullname" . }}.{{ .Release.Namespace }}.svc:{{ .Values.service.port }}
{{- end -}}

{{/* The Service's DNS name: the default TLS server name. */}}
{{- define "gse.host" -}}
{{ include "gse.fullname" . }}.{{ .Release.Namespace }}.svc
{{- end -}}

{{- define "gse.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ .Values.serviceAccount.name | default (include "gse.fullname" .) }}
{{- else -}}
{{ .Values.serviceAccount.name | default "default" }}
{{- end -}}
{{- end -}}

{{/* http or https: what the web config serves. */}}
{{- define "gse.scheme" -}}
{{ if .Values.webConfig.tls_server_config }}https{{ else }}http{{ end }}
{{- end -}}

{{/* The Secret with the basic auth credentials the scrapers send, or "". */}}
{{- define "gse.basicAuthSecret" -}}
{{- if .Values.webConfig.basic_auth_users -}}
{{- if .Values.basicAuth.existingSecret -}}
{{ .Values.basicAuth.existingSecret }}
{{- else if and .Values.basicAuth.username .Values.basicAuth.password -}}
{{ include "gse.fullname" . }}-basic-auth
{{- else -}}
{{ fail "webConfig.basic_auth_users needs the credentials the chart's clients send: basicAuth.username and basicAuth.password, or basicAuth.existingSecret" }}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
The client side of the web config for a prometheus-operator scraper (Probe spec,
ServiceMonitor endpoint, ScrapeConfig spec and its httpSDConfigs): basicAuth from
the Secret, tlsConfig with the CA and the server name.
*/}}
{{- define "gse.scrapeAuth" -}}
{{- with include "gse.basicAuthSecret" . }}
basicAuth:
  username:
    name: {{ . }}
    key: {{ $.Values.basicAuth.usernameKey }}
  password:
    name: {{ . }}
    key: {{ $.Values.basicAuth.passwordKey }}
{{- end }}
{{- if .Values.webConfig.tls_server_config }}
{{- $t := .Values.tlsConfig }}
{{- if not (or $t.ca $t.insecureSkipVerify) }}
{{- fail "webConfig.tls_server_config needs tlsConfig.ca (the CA of the exporter's certificate, from a Secret or ConfigMap), or tlsConfig.insecureSkipVerify: true" }}
{{- end }}
tlsConfig:
  {{- with $t.ca }}
  ca:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  serverName: {{ $t.serverName | default (include "gse.host" .) }}
  {{- if $t.insecureSkipVerify }}
  insecureSkipVerify: true
  {{- end }}
{{- end }}
{{- end -}}

{{/*
A kubelet probe of path (dict "ctx" . "path" "/-/ready"). The kubelet skips
certificate checks for HTTPS and cannot read a Secret: with basic auth the
header comes from basicAuth.username and password, or, with only an existing
Secret, the kubelet checks the port (tcpSocket).
*/}}
{{- define "gse.kubeletProbe" -}}
{{- $v := .ctx.Values -}}
{{- if and $v.webConfig.basic_auth_users (not $v.basicAuth.username) -}}
tcpSocket:
  port: http
{{- else -}}
httpGet:
  path: {{ .path }}
  port: http
  scheme: {{ include "gse.scheme" .ctx | upper }}
  {{- if $v.webConfig.basic_auth_users }}
  httpHeaders:
    - name: Authorization
      value: Basic {{ printf "%s:%s" $v.basicAuth.username $v.basicAuth.password | b64enc }}
  {{- end }}
{{- end -}}
{{- end -}}

{{/* The modules file: config, with clusterPolicy's entries added to target_policy.deny. */}}
{{- define "gse.modulesFile" -}}
{{- $cfg := deepCopy .Values.config -}}
{{- $cp := .Values.clusterPolicy -}}
{{- if $cp.enabled -}}
{{- $tp := deepCopy (default dict $cfg.target_policy) -}}
{{- $deny := concat $cp.loopback $cp.names (list (printf "*.%s" $cp.clusterDomain)) $cp.serviceCIDRs $cp.podCIDRs (default list $tp.deny) | uniq -}}
{{- $_ := set $tp "deny" $deny -}}
{{- $_ := set $cfg "target_policy" $tp -}}
{{- end -}}
{{ toYaml $cfg }}
{{- end -}}

declare module 'parse-prometheus-text-format' {
  /** Prometheus text exposition → prom2json-shaped families (values as strings). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}

export function TransferScreen() {
  return (
    <section aria-labelledby="transfer-title">
      <h1 id="transfer-title">Export / import</h1>
      <p>Export and import arrive with the export endpoints.</p>
    </section>
  );
}

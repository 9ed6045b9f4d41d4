// / — the vault directory.
import { VaultDirectoryFeature } from "@/components/vault/vault-feature";

export default function VaultDirectoryPage() {
  return <VaultDirectoryFeature />;
}

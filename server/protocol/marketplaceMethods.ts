// Marketplaces a client adds by source: a local folder (read where it is) or a git repository
// (cloned under Threadline's home), kept in config.toml's `[marketplaces.<name>]`; removed by name,
// and git ones upgraded to their remote's newest commit. Shapes as in the reference schema.
import { Type } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape } from './schema';

export const MarketplaceAddParams = Params({
  /** An absolute folder path, a git URL (https, ssh, file, git@host:path) or GitHub's owner/repo. */
  source: Type.String(),
  refName: Opt(Type.String()),
  /** Git only: the repository's folders to check out (with `.agents`); the rest stays out. */
  sparsePaths: Opt(Type.Array(Type.String())),
});
export const MarketplaceAddResponse = Shape({
  marketplaceName: Type.String(),
  /** The folder holding the marketplace: the local folder, or the clone. */
  installedRoot: Type.String(),
  alreadyAdded: Type.Boolean(),
});

export const MarketplaceRemoveParams = Params({ marketplaceName: Type.String() });
export const MarketplaceRemoveResponse = Shape({
  marketplaceName: Type.String(),
  /** The clone that was deleted; null for a local folder, which is left as it is. */
  installedRoot: Nullable(Type.String()),
});

export const MarketplaceUpgradeParams = Params({ marketplaceName: Opt(Type.String()) });
export const MarketplaceUpgradeResponse = Shape({
  selectedMarketplaces: Type.Array(Type.String()),
  upgradedRoots: Type.Array(Type.String()),
  errors: Type.Array(Shape({ marketplaceName: Type.String(), message: Type.String() })),
});

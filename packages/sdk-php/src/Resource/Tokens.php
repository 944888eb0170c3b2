<?php
declare(strict_types=1);

namespace Timbre\Resource;

use Timbre\ListIterator;

/** API keys: `/v1/tokens`. */
final class Tokens extends AbstractResource
{
    public function list(array $filters = []): ListIterator
    {
        return $this->paginate('tokens', $filters);
    }

    /** `['name' => …, 'permissions' => [...], 'environment'?, 'business_id'?]`; the answer's `key` is shown only here. */
    public function create(array $body, array $options = []): array
    {
        return $this->call('POST', 'tokens', body: $body, call: self::opts($options));
    }

    /** `DELETE /tokens/{id}`: the key stops working at once. */
    public function revoke(string $id): array
    {
        return $this->call('DELETE', 'tokens/' . self::seg($id));
    }
}

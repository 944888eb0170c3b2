<?php
declare(strict_types=1);

namespace Timbre\Tests;

use PHPUnit\Framework\TestCase;
use Timbre\Exception\WebhookVerificationException;
use Timbre\Webhooks;

/** Standard Webhooks verification with signatures made here (the real delivery is in ScenarioTest). */
final class WebhooksTest extends TestCase
{
    private const BODY = '{"id":"evt_1","event":"dte.status_changed","data":{"folio":7}}';

    private static function secret(string $byte = 'k'): string
    {
        return 'whsec_' . base64_encode(str_repeat($byte, 32));
    }

    public function testASignedDeliveryVerifiesAndGivesTheEvent(): void
    {
        $headers = Webhooks::headers('evt_1', time(), self::BODY, self::secret());
        self::assertSame(['folio' => 7], Webhooks::verify(self::BODY, $headers, self::secret())['data']);
    }

    public function testHeaderNamesMatchInAnyCaseAndValuesMayBeLists(): void
    {
        $headers = [];
        foreach (Webhooks::headers('evt_1', time(), self::BODY, self::secret()) as $name => $value) {
            $headers[ucwords($name, '-')] = [$value];
        }
        self::assertSame('evt_1', Webhooks::verify(self::BODY, $headers, self::secret())['id']);
    }

    public function testAnyOfSeveralSignaturesMayMatchDuringARotation(): void
    {
        $now = time();
        $headers = Webhooks::headers('evt_1', $now, self::BODY, self::secret());
        $headers['webhook-signature'] = Webhooks::sign('evt_1', $now, self::BODY, self::secret('o')) . ' ' . $headers['webhook-signature'];
        self::assertSame('evt_1', Webhooks::verify(self::BODY, $headers, self::secret())['id']);
    }

    /** @return array<string, array{0: callable, 1: string}> */
    public static function badHeaders(): array
    {
        return [
            'another signature' => [fn (array $h) => ['webhook-signature' => 'v1,' . base64_encode(str_repeat('x', 32))] + $h, 'No matching'],
            'another version' => [fn (array $h) => ['webhook-signature' => 'v2,abc'] + $h, 'No matching'],
            'no id' => [fn (array $h) => array_diff_key($h, ['webhook-id' => 1]), 'Missing'],
            'a timestamp that is not a number' => [fn (array $h) => ['webhook-timestamp' => 'soon'] + $h, 'Invalid webhook-timestamp'],
        ];
    }

    /** @dataProvider badHeaders */
    public function testBadHeadersAreRefused(callable $change, string $message): void
    {
        $headers = $change(Webhooks::headers('evt_1', time(), self::BODY, self::secret()));
        $this->expectException(WebhookVerificationException::class);
        $this->expectExceptionMessage($message);
        Webhooks::verify(self::BODY, $headers, self::secret());
    }

    public function testAChangedBodyIsRefused(): void
    {
        $headers = Webhooks::headers('evt_1', time(), self::BODY, self::secret());
        $this->expectException(WebhookVerificationException::class);
        Webhooks::verify(str_replace('7', '8', self::BODY), $headers, self::secret());
    }

    public function testAnotherSecretIsRefused(): void
    {
        $headers = Webhooks::headers('evt_1', time(), self::BODY, self::secret());
        $this->expectException(WebhookVerificationException::class);
        Webhooks::verify(self::BODY, $headers, self::secret('z'));
    }

    public function testTimestampsOutsideFiveMinutesAreRefused(): void
    {
        $now = time();
        self::assertSame('evt_1', Webhooks::verify(self::BODY, Webhooks::headers('evt_1', $now - 299, self::BODY, self::secret()), self::secret(), now: $now)['id']);
        foreach ([[-301, 'too old'], [301, 'future']] as [$shift, $message]) {
            try {
                Webhooks::verify(self::BODY, Webhooks::headers('evt_1', $now + $shift, self::BODY, self::secret()), self::secret(), now: $now);
                self::fail("a timestamp {$shift} s away verified");
            } catch (WebhookVerificationException $error) {
                self::assertStringContainsString($message, $error->getMessage());
            }
        }
    }
}

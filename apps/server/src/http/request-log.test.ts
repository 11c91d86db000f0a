import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-log';

const TOKEN = 'Qm9uZ0s3dF9mYWtlLXRva2VuLWZvci10ZXN0cy0xMjM0NTY';
const HEX_NAME = '9f86d081884c7d659a2feaa0c55ad015';

describe('redactUrl', () => {
  it.each([
    // [url, logged]
    ['/api/v1/case/12/get', '/api/v1/case/12/get'],
    ['/api/v1/case/list/new/0?pageSize=20', '/api/v1/case/list/new/0?pageSize=20'],
    [
      '/api/v1/case/list/new/0?patient=Zebulon%20Quill&pageSize=20',
      '/api/v1/case/list/new/0?patient=[redacted]&pageSize=20',
    ],
    [`/api/v1/storage/download?t=${TOKEN}.c2ln`, '/api/v1/storage/download?t=[redacted]'],
    [
      '/bucket/cases/1/x?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=ab12',
      '/bucket/cases/1/x?X-Amz-Algorithm=[redacted]&X-Amz-Expires=300&X-Amz-Signature=[redacted]',
    ],
    [`/resetPassword/${TOKEN}`, '/resetPassword/[redacted]'],
    [`/verify/${TOKEN}`, '/verify/[redacted]'],
    [`/api/v1/students/invitations/${TOKEN}`, '/api/v1/students/invitations/[redacted]'],
    [`/api/v1/profile/avatar/7/${HEX_NAME}`, '/api/v1/profile/avatar/7/[redacted]'],
    [
      '/api/v1/notification/paypal/transaction/4?token=EC-1AB&PayerID=XYZ',
      '/api/v1/notification/paypal/transaction/4?token=[redacted]&PayerID=[redacted]',
    ],
    [
      '/api/v1/case/transaction/3/checkPhysicalPayment',
      '/api/v1/case/transaction/3/checkPhysicalPayment',
    ],
    ['/api/v1/attachment/9/cancelRequest4Change', '/api/v1/attachment/9/cancelRequest4Change'],
    ['/assets/index-DkQ2s8a1Bx9fLmNpQrStUv.js', '/assets/index-DkQ2s8a1Bx9fLmNpQrStUv.js'],
    ['/register/WELCOME10', '/register/WELCOME10'],
    [
      '/api/v1/shop/products?mostOrdered=true&page=2',
      '/api/v1/shop/products?mostOrdered=true&page=2',
    ],
    ['/x?Zebulon', '/x?[redacted]'],
    ['/x?a%20b=1', '/x?[redacted]'],
    ['/x?flag=', '/x?flag='],
  ])('%s → %s', (url, logged) => expect(redactUrl(url)).toBe(logged));
});
